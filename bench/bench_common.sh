# Shared by the comparison scripts (compare.sh, scale.sh); sourced, with
# $root (the source tree) set and the script's name in $bench.
#
# bench_python: $py is Debian's python (python3-matplotlib lives there, not
# in a pyenv or venv one), with matplotlib installed for the plots unless
# NO_INSTALL is set.
# bench_build DIR CC TARGET...: a meson build of the library in DIR (made
# if missing), and those targets built in it.
#
# SPDX-License-Identifier: BSD-3-Clause
bench_python() {
    py=/usr/bin/python3
    [ -x "$py" ] || py=python3
    if [ -z "${NO_INSTALL:-}" ] && ! "$py" -c 'import matplotlib' 2>/dev/null; then
        apt-get install -y python3-matplotlib >/dev/null || echo "$bench: no matplotlib, no plot" >&2
    fi
}

bench_build() {
    dir=$1 compiler=$2
    shift 2
    if [ ! -f "$dir/build.ninja" ]; then
        CC=$compiler meson setup "$dir" "$root" >/dev/null
    fi
    nice -n 10 ninja -C "$dir" "$@" >/dev/null
}
