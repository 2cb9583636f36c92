#!/bin/sh
# ISx, the integer sort of ParRes (https://github.com/ParRes/ISx, its SHMEM/
# directory), with mpishmem against Open MPI's OSHMEM, on this machine.
#
#   ISX_OURS=DIR [ISX_OURS_OPENMPI=DIR] [ISX_OSHMEM=DIR] sh bench/isx.sh [OUTDIR]
#
# This script only runs programs: ISx is not part of this repository, and
# nothing here builds, fetches or changes it.  Build its SHMEM/ directory
# yourself with ISx's own Makefile, once per library:
#   make optimized CC=oshcc      (bin/isx.strong, isx.weak, isx.weak_iso)
# with our oshcc (a meson install of an MPICH build, first in PATH) for
# ISX_OURS, our oshcc of an Open MPI build for ISX_OURS_OPENMPI, and
# /usr/bin/oshcc (Open MPI's OSHMEM) for ISX_OSHMEM, and point each at the
# bin/ directory of that build.  ISX_OURS is required; without either of
# the others its variant is left out.
#
# ROUNDS times, one launch of each variant in turn, interleaved so that
# load from other processes hits every variant alike, at NP PEs:
#   nodes2 (two pretend nodes, MPICH's -launcher fork -hosts a,b -ppn NP/2):
#           ours_mpich (defaults), ours_mpich_nothread
#           (MPISHMEM_PROGRESS_THREAD=0)
#   node    (one node): the same two, ours_openmpi and oshmem
# Open MPI has no pretend nodes here (as in bench/compare.sh), so its two
# variants run on one node only.  Nobody's waiting is tuned: with more PEs
# than cores our PEs yield, the library's default.
# Each launch is `ISX KEYS ITERS LOGFILE` (ISx times ITERS iterations after
# one untimed burn-in one, and verifies the last); the figures are the two
# ISx prints from PE 0, the average over PEs and iterations of the whole
# iteration ("Average total time") and of the key exchange ("Average
# all2all time": shmem_longlong_fadd for the offset, shmem_int_put of the
# keys, then shmem_barrier_all), plus the launch as the shell sees it.
# ISx asks for a 1 GiB symmetric receive buffer per PE: every variant gets
# SHMEM_SYMMETRIC_SIZE=$HEAP, and OSHMEM (Open MPI 4.1 reads only that
# name) SMA_SYMMETRIC_SIZE=$HEAP too.
# Every launch runs under `timeout` (KILL 10 s later); one that fails, times
# out or does not pass ISx's verification (exit status 0 and no "Failed
# Verification" / "Verification Failed" line) is recorded as missing
# (verify column: the reason; its output kept as failed-VARIANT-...out) and
# the run goes on.
# Writes raw.csv (every launch), summary.csv (medians over rounds per
# variant, scaling and topology, and each one's ratio to OSHMEM (one node)
# and to ours_mpich, the defaults, in the same topology), load.txt (uptime
# before and after) and the ISx log files to OUTDIR (default
# bench-results/isx), and prints the summary.
#
# Knobs: ROUNDS (3), NP (4), ISX_KEYS (keys per PE for weak and weak_iso,
# total for strong; 4194304), ISX_ITERS (3), ISX_SCALINGS ("weak_iso weak"),
# TOPOS ("nodes2 node"), IMPLS (the variants to run, names as above),
# HEAP (1200M), TIMEOUT (300 s per launch), SUMMARY_ONLY=1 (only summarize
# OUTDIR/raw.csv).
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

out=${1:-$root/bench-results/isx}
ROUNDS=${ROUNDS:-3}
NP=${NP:-4}
ISX_KEYS=${ISX_KEYS:-4194304}
ISX_ITERS=${ISX_ITERS:-3}
ISX_SCALINGS=${ISX_SCALINGS:-weak_iso weak}
TOPOS=${TOPOS:-nodes2 node}
IMPLS=${IMPLS:-ours_mpich ours_mpich_nothread ours_openmpi oshmem}
HEAP=${HEAP:-1200M}
TIMEOUT=${TIMEOUT:-300}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3

# shellcheck disable=SC2034 # bench_common.sh's messages use $bench
bench=isx.sh
# shellcheck source=bench/bench_common.sh
. "$here/bench_common.sh"

raw=$out/raw.csv
if [ -z "${SUMMARY_ONLY:-}" ]; then
progs=
for s in $ISX_SCALINGS; do
    case $s in strong | weak | weak_iso) progs="$progs isx.$s" ;;
    *) echo "isx.sh: unknown scaling $s (strong, weak, weak_iso)" >&2; exit 1 ;;
    esac
done
# shellcheck disable=SC2086 # one program per word
ours_mpich=$(bench_programs ISX_OURS "ISx built with our oshcc on MPICH" $progs)
ours_openmpi='' oshmem=''
if [ -n "${ISX_OURS_OPENMPI:-}" ]; then
    # shellcheck disable=SC2086
    ours_openmpi=$(bench_programs ISX_OURS_OPENMPI "ISx built with our oshcc on Open MPI" $progs)
else
    bench_drop ours_openmpi "no ISX_OURS_OPENMPI"
fi
if [ -n "${ISX_OSHMEM:-}" ]; then
    # shellcheck disable=SC2086
    oshmem=$(bench_programs ISX_OSHMEM "ISx built with Open MPI's oshcc" $progs)
else
    bench_drop oshmem "no ISX_OSHMEM"
fi

two="mpiexec.mpich -launcher fork -hosts a,b -ppn $((NP / 2)) -n $NP"
one_mpich="mpiexec.mpich -n $NP"
one_ompi="mpiexec.openmpi --oversubscribe --mca btl_base_warn_component_unused 0 -n $NP"
one_osh="oshrun --allow-run-as-root --oversubscribe --mca opal_common_ucx_opal_mem_hooks 0 -n $NP"

echo "variant,scaling,round,np,topo,total_s,all2all_s,launch_s,verify" >"$raw"
# run ROUND SCALING TOPO IMPL: one launch, one row of raw.csv.
run() {
    r=$1 s=$2 topo=$3 impl=$4
    case $impl in
    ours_mpich) exe=$ours_mpich/isx.$s envs= ;;
    ours_mpich_nothread) exe=$ours_mpich/isx.$s envs="MPISHMEM_PROGRESS_THREAD=0" ;;
    ours_openmpi) exe=$ours_openmpi/isx.$s envs= ;;
    oshmem) exe=$oshmem/isx.$s envs="SMA_SYMMETRIC_SIZE=$HEAP" ;;
    *) echo "isx.sh: unknown variant $impl" >&2; exit 1 ;;
    esac
    case $topo/$impl in
    nodes2/ours_openmpi | nodes2/oshmem) return ;;
    nodes2/*) launch=$two ;;
    node/ours_openmpi) launch=$one_ompi ;;
    node/oshmem) launch=$one_osh ;;
    node/*) launch=$one_mpich ;;
    *) echo "isx.sh: unknown topology $topo" >&2; exit 1 ;;
    esac
    log=$out/logs/$impl-$s-$topo-np$NP-round$r.log
    rm -f "$log"
    t0=$(date +%s.%N)
    rc=0
    # shellcheck disable=SC2086 # $envs and $launch hold several words
    timeout -k 10 "$TIMEOUT" env SHMEM_SYMMETRIC_SIZE="$HEAP" $envs $launch "$exe" \
        "$ISX_KEYS" "$ISX_ITERS" "$log" >"$out/last.out" 2>&1 </dev/null || rc=$?
    wall=$(echo "$(date +%s.%N) - $t0" | bc)
    total=$(sed -n 's/^Average total time (per PE): *\([0-9.]*\).*/\1/p' "$out/last.out")
    ata=$(sed -n 's/^Average all2all time (per PE): *\([0-9.]*\).*/\1/p' "$out/last.out")
    if [ "$rc" -ne 0 ]; then
        verify="missing: rc $rc"
    elif grep -q -e 'Failed Verification' -e 'Verification Failed' "$out/last.out"; then
        verify="missing: verification failed"
    elif [ -z "$total" ] || [ -z "$ata" ]; then
        verify="missing: no timing line"
    else
        verify=ok
    fi
    if [ "$verify" != ok ]; then
        bench_failed "$impl-$s-$topo-np$NP-round$r" "$impl $s $topo np=$NP round $r: $verify"
        total='' ata=''
    fi
    echo "$impl,$s,$r,$NP,$topo,$total,$ata,$wall,$verify" >>"$raw"
    echo "isx.sh: round $r $impl $s $topo np=$NP: total ${total:--} all2all ${ata:--} launch ${wall}s $verify" >&2
}
one_round() {
    for s in $ISX_SCALINGS; do
        for topo in $TOPOS; do
            for impl in $IMPLS; do
                run "$1" "$s" "$topo" "$impl"
            done
        done
    done
}
bench_rounds one_round
fi

bench_summarize <<'EOF'
import sys
raw, out = sys.argv[1], sys.argv[2]
from bench_summary import ratio, summary_writer, verified_medians
fields = ('total_s', 'all2all_s', 'launch_s')
order, runs, ok, med = verified_medians(raw, ('variant', 'scaling', 'topo', 'np'), fields)
hdr = ['variant', 'scaling', 'topo', 'np', 'verified', 'total_s', 'all2all_s',
       'launch_s', 'total_vs_oshmem', 'all2all_vs_oshmem', 'total_vs_ours_mpich',
       'all2all_vs_ours_mpich']
w = summary_writer(out)
w.writerow(hdr)
for k in order:
    v, s, t, n = k
    row = [v, s, t, n, '%d/%d' % (ok[k], runs[k])]
    row += ['%.4f' % med[k + (f,)] if k + (f,) in med else '' for f in fields]
    for base in ('oshmem', 'ours_mpich'):
        for f in ('total_s', 'all2all_s'):
            row.append(ratio(med.get(k + (f,)), med.get((base, s, t, n, f))) if v != base else '')
    w.writerow(row)
EOF
bench_report
