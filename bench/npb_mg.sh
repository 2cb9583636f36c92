#!/bin/sh
# NPB MG, the multigrid benchmark of the NAS Parallel Benchmarks, in its
# OpenSHMEM Fortran port (https://github.com/openshmem-org/openshmem-npbs,
# its Fortran/ directory), with mpishmem on MPICH, against the plain MPI MG
# of NPB 3.3 on the same MPICH: "MPICH's own cost of the same traffic"
# (issue 19: "NPB MG class A at 4 PEs on two pretend nodes: find where the
# 13.6x goes").
#
#   NPB_OURS=DIR [NPB_MPI=DIR] sh bench/npb_mg.sh [OUTDIR]
#
# This script only runs programs: NPB is not part of this repository, and
# nothing here builds, fetches or changes it.  Build MG yourself with each
# suite's own make system (NPB's README.install: config/make.def names the
# compiler, `make BENCHMARK CLASS=... NPROCS=...` builds bin/mg.CLASS.NP):
#   openshmem-npbs Fortran/:  make MG CLASS=A NPROCS=4   (its make.def
#                             names oshfort: ours, from a meson install of
#                             an MPICH build, first in PATH)
#   NPB3.3-MPI:               make MG CLASS=A NPROCS=4   (make.def from
#                             make.def.template, MPIF77 = mpif90.mpich)
# and point NPB_OURS and NPB_MPI at the two bin/ directories; CLASS and NP
# below pick mg.CLASS.NP there.  Without NPB_MPI the mpi variant is left
# out.
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
# SUMMARY_ONLY=1 (only summarize OUTDIR/raw.csv).
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

out=${1:-$root/bench-results/npb_mg}
ROUNDS=${ROUNDS:-3}
NP=${NP:-4}
CLASS=${CLASS:-A}
TOPOS=${TOPOS:-node nodes2}
IMPLS=${IMPLS:-ours ours_noshm ours_nothread ours_spin mpi}
TIMEOUT=${TIMEOUT:-300}
mkdir -p "$out"
out=$(cd "$out" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3

# shellcheck disable=SC2034 # bench_common.sh's messages use $bench
bench=npb_mg.sh
# shellcheck source=bench/bench_common.sh
. "$here/bench_common.sh"

raw=$out/raw.csv
if [ -z "${SUMMARY_ONLY:-}" ]; then
prog=mg.$CLASS.$NP
ours=$(bench_programs NPB_OURS "openshmem-npbs' MG built with our oshfort on MPICH" "$prog")
mpi=''
if [ -n "${NPB_MPI:-}" ]; then
    mpi=$(bench_programs NPB_MPI "NPB3.3-MPI's MG built with mpif90.mpich" "$prog")
else
    bench_drop mpi "no NPB_MPI"
fi

two="mpiexec.mpich -launcher fork -hosts a,b -ppn $((NP / 2)) -n $NP"
one="mpiexec.mpich -n $NP"

echo "variant,class,round,np,topo,time_s,launch_s,verify" >"$raw"
# run ROUND TOPO IMPL: one launch, one row of raw.csv.
run() {
    r=$1 topo=$2 impl=$3
    case $impl in
    ours) exe=$ours envs= ;;
    ours_noshm) exe=$ours envs=MPISHMEM_SHM=0 ;;
    ours_nothread) exe=$ours envs=MPISHMEM_PROGRESS_THREAD=0 ;;
    ours_spin) exe=$ours envs=MPISHMEM_YIELD=0 ;;
    mpi) exe=$mpi envs= ;;
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
    (cd "$out" && timeout -k 10 "$TIMEOUT" env $envs $launch "$exe/$prog") \
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
