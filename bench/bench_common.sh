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
# bench_programs VAR WHAT FILE...: the directory named by the variable VAR
# (the user's build of a benchmark suite; WHAT says with which compiler)
# must hold every FILE as an executable; prints it as an absolute path, or
# says what is missing and exits 2.  Used by isx.sh, osu.sh and npb_mg.sh,
# which run programs the user built and never build other projects' code.
# bench_drop IMPL WHY: IMPLS without the variant IMPL, saying WHY.
# bench_failed NAME WHY: keeps $out/last.out as $out/failed-NAME.out and
# reports WHY with the output's last lines.
# bench_build_ours TARGET...: those targets in build-mpich and
# build-openmpi of this tree (bench_build with each MPI's mpicc).
# bench_outdir DIR [HEADER]: makes DIR, sets $out to its absolute path and
# $raw to $out/raw.csv, emptied, or holding the line HEADER.
# bench_rounds FN: notes the load in $out/load.txt, calls FN 1, FN 2, ...
# FN $ROUNDS (one interleaved round each), then notes the load again.
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

bench_programs() {
    var=$1 what=$2
    shift 2
    eval "dir=\${$var:-}"
    if [ -z "$dir" ] || [ ! -d "$dir" ]; then
        echo "$bench: set $var to the directory of $what" >&2
        echo "$bench: (bench/$bench's header gives the build command)" >&2
        exit 2
    fi
    for f in "$@"; do
        if [ ! -x "$dir/$f" ]; then
            echo "$bench: $var=$dir has no program $f ($what)" >&2
            exit 2
        fi
    done
    (cd "$dir" && pwd)
}

bench_drop() {
    case " $IMPLS " in *" $1 "*)
        echo "$bench: $2: leaving out the $1 variant" >&2
        IMPLS=$(echo " $IMPLS " | sed "s/ $1 / /g") ;;
    esac
}

bench_failed() {
    cp "$out/last.out" "$out/failed-$1.out"
    echo "$bench: $2" >&2
    grep -v -e '^-*$' "$out/last.out" | tail -3 >&2
}

bench_build_ours() {
    bench_build "$root/build-mpich" mpicc.mpich "$@"
    bench_build "$root/build-openmpi" mpicc.openmpi "$@"
}

bench_outdir() {
    mkdir -p "$1"
    out=$(cd "$1" && pwd)
    raw=$out/raw.csv
    if [ $# -ge 2 ]; then echo "$2" >"$raw"; else : >"$raw"; fi
}

bench_rounds() {
    echo "before: $(uptime)" >"$out/load.txt"
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
