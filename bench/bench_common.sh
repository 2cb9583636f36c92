# Shared by the comparison scripts (compare.sh, scale.sh); sourced, with
# $root (the source tree) set and the script's name in $bench.
#
# bench_python: $py is Debian's python (python3-matplotlib lives there, not
# in a pyenv or venv one), with matplotlib installed for the plots unless
# NO_INSTALL is set.
# bench_build DIR CC TARGET...: a meson build of the library in DIR (made
# if missing), and those targets built in it.
# bench_ours DIR MPI: sets $cc and $lib to compile a program against the
# static library of the meson build DIR (brought up to date unless
# NO_BUILD is set) with mpicc.MPI.
# bench_compile LOG WHAT CMD...: runs CMD into LOG; on failure says WHAT
# failed, shows LOG's tail and exits.
# bench_build_variants FN IMPL...: calls FN IMPL once per distinct program
# (variants ours_mpich* share ours_mpich's), with the first IMPL naming it.
# bench_failed NAME WHY: keeps $out/last.out as $out/failed-NAME.out and
# reports WHY with the output's last lines.
# bench_rounds FN: calls FN 1, FN 2, ... FN $ROUNDS (one interleaved round
# each), then notes the load in $out/load.txt.
# bench_report: the load before and after, and where the results are.
# bench_summarize: runs the Python summary on stdin with bench/ on its path
# (bench_summary.py) and $raw $out as its arguments.
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

bench_ours() {
    [ -n "${NO_BUILD:-}" ] || bench_build "$1" "mpicc.$2" libmpishmem.a
    # shellcheck disable=SC2034 # for the caller
    # The source tree the build was configured from: its include/ is ours.
    cc="mpicc.$2 -I$(sed -n 's/.*"source": *"\([^"]*\)".*/\1/p' "$1/meson-info/meson-info.json")/include"
    lib=$1/libmpishmem.a
}

bench_compile() {
    log=$1 what=$2
    shift 2
    if ! "$@" >"$log" 2>&1; then
        echo "$bench: building $what failed; see $log" >&2
        tail -5 "$log" >&2
        exit 1
    fi
}

bench_build_variants() {
    fn=$1
    shift
    built=
    for impl in "$@"; do
        case $impl in ours_mpich*) b=ours_mpich ;; *) b=$impl ;; esac
        case " $built " in *" $b "*) ;; *) "$fn" "$impl"; built="$built $b" ;; esac
    done
}

bench_failed() {
    cp "$out/last.out" "$out/failed-$1.out"
    echo "$bench: $2" >&2
    grep -v -e '^-*$' "$out/last.out" | tail -3 >&2
}

bench_rounds() {
    round=1
    while [ "$round" -le "$ROUNDS" ]; do
        "$1" "$round"
        round=$((round + 1))
    done
    echo "after:  $(uptime)" >>"$out/load.txt"
}

bench_summarize() {
    PYTHONPATH="$root/bench${PYTHONPATH:+:$PYTHONPATH}" "${py:-python3}" - "$raw" "$out"
}

bench_report() {
    cat "$out/load.txt" 2>/dev/null || true
    echo "$bench: $out/raw.csv, $out/summary.csv" >&2
}
