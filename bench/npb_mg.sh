#!/bin/sh
# NPB MG, the multigrid benchmark of the NAS Parallel Benchmarks, in its
# OpenSHMEM Fortran port (https://github.com/openshmem-org/openshmem-npbs,
# its Fortran/ directory), with mpishmem on MPICH, against the plain MPI MG
# of NPB 3.3 on the same MPICH: "MPICH's own cost of the same traffic"
# (issue 19: "NPB MG class A at 4 PEs on two pretend nodes: find where the
# 13.6x goes").
#
#   NPB_SRC=/path/to/openshmem-npbs/Fortran \
#   [NPB_MPI_SRC=/path/to/NPB3.3-MPI] sh bench/npb_mg.sh [OUTDIR]
#
# NPB is not part of this repository and never will be: fetch it yourself
# and point NPB_SRC at the port's Fortran/ directory (MG/mg.f, MG/globals.h,
# MG/mpinpb.h, common/print_results.f, common/timers.f and a random number
# generator common/randdp.f or common/randi8.f; config/ and sys/ are not
# used). NPB_MPI_SRC, optional, is the NPB3.3-MPI directory of NPB 3.3
# (the same files, its own MG/mg.f); without it the mpi variants are left
# out. Nothing is written into either tree.
#
# The build compiles the files directly (the port's make system needs
# sys/setparams and a config/make.def naming one compiler for all of NPB):
# npbparams.h for MG, class CLASS and NP processes, is written into OUTDIR
# the way NPB's sys/setparams.c writes it (lm, ndim1..3 from the log2 of
# the grid and of NP; NP a power of two), then every file is compiled with
# mpif90.mpich NPB_FFLAGS (gfortran >= 10 needs -fallow-argument-mismatch:
# the port passes different types to one SHMEM routine) and linked with the
# static library of the BUILD_MPICH meson tree (made or brought up to date
# by bench_build unless NO_BUILD=1). The port's mg.f passes seven
# compile-option strings to print_results and its common/print_results.f
# takes nine; when the two disagree the build compiles that file with
# -Dprint_results=npb_print_results9 and adds a seven-string
# print_results that calls it with two blank strings (otherwise the
# program reads past its arguments when it prints).
#
# Then, ROUNDS times, one launch of each variant in turn, interleaved so
# that load from other processes hits every variant alike, at NP PEs:
#   node    (one node, mpiexec.mpich -n NP): ours (defaults),
#           ours_noshm (MPISHMEM_SHM=0), mpi
#   nodes2  (two pretend nodes, MPICH's -launcher fork -hosts a,b
#           -ppn NP/2): ours, ours_nothread (MPISHMEM_PROGRESS_THREAD=0),
#           ours_spin (MPISHMEM_YIELD=0), mpi
# Pretend nodes share this machine's cores: with more PEs than cores the
# library's default yields while it waits (lib/init.c plan_waiting counts
# the machine's PEs when MPI nodes share it); ours_spin is the spinning the
# default was before 2026-11-28, when it counted only its MPI node's PEs.
# The figures are NPB's "Time in seconds" (the timed iterations, the
# maximum over PEs) and the launch as the shell sees it. Every launch runs
# under `timeout` (KILL 10 s later) with stdin from /dev/null; one that
# fails, times out or does not print NPB's " VERIFICATION SUCCESSFUL" is
# recorded as missing (verify column: the reason; its output kept as
# failed-VARIANT-...out) and the run goes on.
# Writes raw.csv (every launch), summary.csv (medians over rounds per
# variant and topology, each one's ratio to ours on one node and to mpi in
# the same topology), load.txt (uptime before and after) to OUTDIR
# (default bench-results/npb_mg), and prints the summary.
#
# Knobs: ROUNDS (3), NP (4), CLASS (A; S W A B C D), TOPOS ("node nodes2"),
# IMPLS (the variants to run, names as above), TIMEOUT (300 s per launch),
# NPB_FFLAGS ("-O3 -fallow-argument-mismatch"), BUILD_MPICH (build-mpich),
# NO_BUILD=1, SUMMARY_ONLY=1 (only summarize OUTDIR/raw.csv).
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

if [ -z "${NPB_SRC:-}" ] || [ ! -f "${NPB_SRC:-}/MG/mg.f" ]; then
    echo "npb_mg.sh: set NPB_SRC to openshmem-npbs' Fortran/ directory (MG/mg.f, common/, ...)" >&2
    echo "npb_mg.sh: NPB is not shipped here; get it from https://github.com/openshmem-org/openshmem-npbs" >&2
    echo "npb_mg.sh:   git clone https://github.com/openshmem-org/openshmem-npbs && NPB_SRC=\$PWD/openshmem-npbs/Fortran sh bench/npb_mg.sh" >&2
    exit 2
fi
# rand_file DIR: the tree's random number generator (NPB's RAND).
rand_file() {
    for r in randdp randi8 randdpvec randi8_safe; do
        if [ -f "$1/common/$r.f" ]; then
            echo "$1/common/$r.f"
            return 0
        fi
    done
    return 1
}
# check_tree DIR WHAT: the files the build compiles.
check_tree() {
    for f in MG/mg.f MG/globals.h MG/mpinpb.h common/print_results.f common/timers.f; do
        if [ ! -f "$1/$f" ]; then
            echo "npb_mg.sh: $1 has no $f ($2)" >&2
            exit 2
        fi
    done
    if ! rand_file "$1" >/dev/null; then
        echo "npb_mg.sh: $1 has no common/randdp.f or common/randi8.f ($2)" >&2
        exit 2
    fi
}
check_tree "$NPB_SRC" "openshmem-npbs' Fortran/ directory"
NPB_SRC=$(cd "$NPB_SRC" && pwd)
NPB_MPI_SRC=${NPB_MPI_SRC:-}
if [ -n "$NPB_MPI_SRC" ]; then
    check_tree "$NPB_MPI_SRC" "NPB3.3-MPI"
    NPB_MPI_SRC=$(cd "$NPB_MPI_SRC" && pwd)
fi

out=${1:-$root/bench-results/npb_mg}
ROUNDS=${ROUNDS:-3}
NP=${NP:-4}
CLASS=${CLASS:-A}
TOPOS=${TOPOS:-node nodes2}
IMPLS=${IMPLS:-ours ours_noshm ours_nothread ours_spin mpi}
TIMEOUT=${TIMEOUT:-300}
NPB_FFLAGS=${NPB_FFLAGS:--O3 -fallow-argument-mismatch}
BUILD_MPICH=${BUILD_MPICH:-$root/build-mpich}
if [ -z "$NPB_MPI_SRC" ]; then
    case " $IMPLS " in *" mpi "*)
        echo "npb_mg.sh: no NPB_MPI_SRC: leaving out the mpi variant" >&2
        IMPLS=$(echo " $IMPLS " | sed 's/ mpi / /g') ;;
    esac
fi
mkdir -p "$out/bin"
out=$(cd "$out" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3

# shellcheck disable=SC2034 # bench_common.sh's messages use $bench
bench=npb_mg.sh
# shellcheck source=bench/bench_common.sh
. "$here/bench_common.sh"

# log2 N: N's base-2 logarithm, or failure when N is no power of two.
log2() {
    n=$1 l=0
    while [ "$n" -gt 1 ]; do
        [ $((n % 2)) -eq 0 ] || return 1
        n=$((n / 2)) l=$((l + 1))
    done
    [ "$n" -eq 1 ] || return 1
    echo "$l"
}
# npbparams DIR: MG's npbparams.h for CLASS and NP, as sys/setparams.c
# writes it (write_mg_info and the compile-option strings).
npbparams() {
    case $CLASS in
    S) size=32 nit=4 ;;
    W) size=128 nit=4 ;;
    A) size=256 nit=4 ;;
    B) size=256 nit=20 ;;
    C) size=512 nit=20 ;;
    D) size=1024 nit=50 ;;
    *) echo "npb_mg.sh: unknown class $CLASS (S W A B C D)" >&2; exit 1 ;;
    esac
    lsize=$(log2 "$size")
    lnp=$(log2 "$NP") || { echo "npb_mg.sh: NP=$NP is not a power of two (MG needs one)" >&2; exit 1; }
    lm=$((lsize - lnp / 3))
    cat >"$1/npbparams.h" <<EOF
c NPROCS = $NP CLASS = $CLASS
c  Written by bench/npb_mg.sh as NPB's sys/setparams writes it for MG.
        integer nprocs_compiled
        parameter (nprocs_compiled = $NP)
        integer nx_default, ny_default, nz_default
        parameter (nx_default=$size, ny_default=$size, nz_default=$size)
        integer nit_default, lm, lt_default
        parameter (nit_default=$nit, lm = $lm, lt_default=$lsize)
        integer debug_default
        parameter (debug_default=0)
        integer ndim1, ndim2, ndim3
        parameter (ndim1 = $lm, ndim2 = $((lsize - (lnp + 1) / 3)),
     >             ndim3 = $((lsize - (lnp + 2) / 3)))
        logical  convertdouble
        parameter (convertdouble = .false.)
        character*11 compiletime
        parameter (compiletime='$(date '+%d %b %Y')')
        character*3 npbversion
        parameter (npbversion='3.3')
        character*12 cs1
        parameter (cs1='mpif90.mpich')
        character*12 cs2
        parameter (cs2='mpif90.mpich')
        character*1 cs3, cs4, cs6, cs7
        parameter (cs3=' ', cs4=' ', cs6=' ', cs7=' ')
        character*40 cs5
        parameter (cs5='$NPB_FFLAGS')
EOF
}
# print_results arity: the number of arguments its SUBROUTINE line and
# mg.f's CALL pass (continuation lines joined).
arity() {
    "$py" - "$1" "$2" <<'EOF'
import re, sys
def joined(path):
    out = []
    for line in open(path, errors='replace'):
        if line[:1] in 'cC*!':
            continue
        if len(line) > 5 and line[5] not in ' 0' and out:
            out[-1] += line[6:].rstrip('\n')
        else:
            out.append(line.rstrip('\n'))
    return out
def args(lines, pat):
    for l in lines:
        m = re.search(pat + r'\s*print_results\s*\((.*)\)', l, re.I)
        if m:
            return len(re.sub(r"'[^']*'", 'x', m.group(1)).split(','))
    return 0
print(args(joined(sys.argv[1]), 'subroutine'), args(joined(sys.argv[2]), 'call'))
EOF
}

raw=$out/raw.csv
if [ -z "${SUMMARY_ONLY:-}" ]; then
fc=mpif90.mpich
# build_one SRC NAME [LIB]: OUTDIR/bin/mg.CLASS.NP.NAME from the tree SRC.
build_one() {
    src=$1 name=$2 lib=${3:-}
    b=$out/build-$name
    rm -rf "$b"
    mkdir -p "$b"
    npbparams "$b"
    log=$out/build-$name.log
    : >"$log"
    pr=$src/common/print_results.f
    ar=$(arity "$pr" "$src/MG/mg.f")
    have=${ar% *} want=${ar#* }
    if [ "$have" = 23 ] && [ "$want" = 21 ]; then
        # shellcheck disable=SC2086 # the flags hold several words
        bench_compile "$log" "print_results for $name" \
            $fc $NPB_FFLAGS -cpp -Dprint_results=npb_print_results9 \
            -c "$pr" -o "$b/print_results9.o"
        cat >"$b/print_results7.f" <<'EOF2'
c     Written by bench/npb_mg.sh: mg.f's seven compile-option strings to
c     the nine of this tree's print_results.
      subroutine print_results(name, class, n1, n2, n3, niter,
     >     npc, npt, t, mops, optype, verified, npbversion,
     >     compiletime, cs1, cs2, cs3, cs4, cs5, cs6, cs7)
      implicit none
      character*(*) name, class, optype, npbversion, compiletime,
     >     cs1, cs2, cs3, cs4, cs5, cs6, cs7
      integer n1, n2, n3, niter, npc, npt
      double precision t, mops
      logical verified
      call npb_print_results9(name, class, n1, n2, n3, niter,
     >     npc, npt, t, mops, optype, verified, npbversion,
     >     compiletime, cs1, cs2, cs3, ' ', ' ', cs4, cs5, cs6, cs7)
      end
EOF2
        # shellcheck disable=SC2086
        bench_compile "$log" "print_results for $name" \
            $fc $NPB_FFLAGS -c "$b/print_results7.f" -o "$b/print_results7.o"
        objs="$b/print_results9.o $b/print_results7.o"
    elif [ "$have" != "$want" ]; then
        echo "npb_mg.sh: $pr takes $have arguments, mg.f passes $want" >&2
        exit 1
    else
        # shellcheck disable=SC2086
        bench_compile "$log" "print_results for $name" \
            $fc $NPB_FFLAGS -c "$pr" -o "$b/print_results.o"
        objs=$b/print_results.o
    fi
    for f in "$src/common/timers.f" "$(rand_file "$src")"; do
        o=$b/$(basename "$f" .f).o
        # shellcheck disable=SC2086
        bench_compile "$log" "$(basename "$f") for $name" $fc $NPB_FFLAGS -c "$f" -o "$o"
        objs="$objs $o"
    done
    # shellcheck disable=SC2086 # $inc, $objs and $lib hold several words
    bench_compile "$log" "MG class $CLASS for $name" \
        $fc $NPB_FFLAGS -I"$b" -I"$src/MG" $inc -o "$out/bin/mg.$CLASS.$NP.$name" \
        "$src/MG/mg.f" $objs $lib
}
build() {
    case $1 in
    ours*)
        bench_ours "$BUILD_MPICH" mpich
        # bench_ours gives "mpicc.mpich -IINCLUDE": the Fortran build needs
        # the include directory only (shmem.fh, mpp/shmem.fh).
        inc=${cc#mpicc.mpich }
        build_one "$NPB_SRC" ours "$lib" ;;
    mpi) inc=; build_one "$NPB_MPI_SRC" mpi ;;
    *) echo "npb_mg.sh: unknown variant $1" >&2; exit 1 ;;
    esac
}
# shellcheck disable=SC2086 # one variant per word
bench_build_variants build $IMPLS

two="mpiexec.mpich -launcher fork -hosts a,b -ppn $((NP / 2)) -n $NP"
one="mpiexec.mpich -n $NP"

echo "variant,class,round,np,topo,time_s,launch_s,verify" >"$raw"
echo "before: $(uptime)" >"$out/load.txt"
# run ROUND TOPO IMPL: one launch, one row of raw.csv.
run() {
    r=$1 topo=$2 impl=$3
    case $impl in
    ours) exe=ours envs= ;;
    ours_noshm) exe=ours envs=MPISHMEM_SHM=0 ;;
    ours_nothread) exe=ours envs=MPISHMEM_PROGRESS_THREAD=0 ;;
    ours_spin) exe=ours envs=MPISHMEM_YIELD=0 ;;
    mpi) exe=mpi envs= ;;
    *) echo "npb_mg.sh: unknown variant $impl" >&2; exit 1 ;;
    esac
    case $topo/$impl in
    node/ours_nothread | node/ours_spin | nodes2/ours_noshm) return ;;
    nodes2/*) launch=$two ;;
    node/*) launch=$one ;;
    *) echo "npb_mg.sh: unknown topology $topo" >&2; exit 1 ;;
    esac
    t0=$(date +%s.%N)
    rc=0
    # shellcheck disable=SC2086 # $envs and $launch hold several words
    (cd "$out" && timeout -k 10 "$TIMEOUT" env $envs $launch "$out/bin/mg.$CLASS.$NP.$exe") \
        >"$out/last.out" 2>&1 </dev/null || rc=$?
    wall=$(echo "$(date +%s.%N) - $t0" | bc)
    t=$(sed -n 's/^ *Time in seconds = *\([0-9.]*\).*/\1/p' "$out/last.out" | head -1)
    if [ "$rc" -ne 0 ]; then
        verify="missing: rc $rc"
    elif ! grep -q ' VERIFICATION SUCCESSFUL' "$out/last.out"; then
        verify="missing: verification failed"
    elif [ -z "$t" ]; then
        verify="missing: no timing line"
    else
        verify=ok
    fi
    if [ "$verify" != ok ]; then
        bench_failed "$impl-$topo-np$NP-round$r" "$impl $topo np=$NP round $r: $verify"
        t=''
    fi
    echo "$impl,$CLASS,$r,$NP,$topo,$t,$wall,$verify" >>"$raw"
    echo "npb_mg.sh: round $r $impl $topo np=$NP class $CLASS: time ${t:--} launch ${wall}s $verify" >&2
}
one_round() {
    for topo in $TOPOS; do
        for impl in $IMPLS; do
            run "$1" "$topo" "$impl"
        done
    done
}
bench_rounds one_round
fi

bench_summarize <<'EOF'
import sys
raw, out = sys.argv[1], sys.argv[2]
from bench_summary import ratio, summary_writer, verified_medians
fields = ('time_s', 'launch_s')
order, runs, ok, med = verified_medians(raw, ('variant', 'class', 'topo', 'np'), fields)
hdr = ['variant', 'class', 'topo', 'np', 'verified', 'time_s', 'launch_s',
       'time_vs_ours_node', 'time_vs_mpi_same_topo']
w = summary_writer(out)
w.writerow(hdr)
for k in order:
    v, c, t, n = k
    row = [v, c, t, n, '%d/%d' % (ok[k], runs[k])]
    row += ['%.4f' % med[k + (f,)] if k + (f,) in med else '' for f in fields]
    row.append(ratio(med.get(k + ('time_s',)), med.get(('ours', c, 'node', n, 'time_s'))))
    row.append(ratio(med.get(k + ('time_s',)), med.get(('mpi', c, t, n, 'time_s'))))
    w.writerow(row)
EOF
bench_report
