#!/bin/sh
# The OSU Micro-Benchmarks' OpenSHMEM atomics and put message rate tests
# (osu_oshm_atomics, osu_oshm_put_mr) with mpishmem against Open MPI's
# OSHMEM, on this machine.
#
#   OSU_OURS=DIR OSU_OSHMEM=DIR sh bench/osu.sh [OUTDIR]
#
# This script only runs programs: OMB is not part of this repository, and
# nothing here builds, fetches or changes it.  Build OMB 7.x
# (https://mvapich.cse.ohio-state.edu/benchmarks/) yourself, twice, with
# its standard build (its README: configure with CC and CXX set to the
# OpenSHMEM wrappers):
#   ours (MPICH):  ./configure CC=oshcc CXX=oshc++ && make   (our oshcc,
#                  from a meson install of an MPICH build, first in PATH)
#   OSHMEM:        ./configure CC=/usr/bin/oshcc CXX=/usr/bin/oshc++ && make
# and point OSU_OURS and OSU_OSHMEM at the two directories holding
# osu_oshm_atomics and osu_oshm_put_mr (c/openshmem/ of the OMB 7.x build
# tree).  Without OSU_OSHMEM the oshmem variant is left out.  Iteration
# counts and printing are OMB's (500 per atomic op; 500 puts per size below
# 8 KiB, 50 from 8 KiB to 4 MiB; these tests have no -i option; latencies
# with 2 decimals, 0.01 us steps, unless FLOAT_PRECISION says otherwise).
#
# ROUNDS times, one launch of each test, variant and PE count in turn,
# interleaved so that load from other processes hits every variant alike:
#   nodes2 (two pretend nodes: MPICH's -launcher fork -hosts a,b -ppn NP/2):
#           ours_mpich (library defaults), ours_mpich_am1 (MPISHMEM_AMO_AM=1:
#           AMOs are requests the owner applies), ours_mpich_am0
#           (MPISHMEM_AMO_AM=0: MPI atomics)
#   node    (one node): the same three and oshmem
# at NP in NPS (2: one PE per pretend node; 4: two).  Open MPI has no
# pretend nodes here (as in bench/compare.sh), so OSHMEM runs on one node
# only.  OSU pairs PE i with PE i+NP/2, so on two pretend nodes every pair
# crosses between them.  Nobody's waiting is tuned.
# Each launch is `TEST OSU_MEM` (heap: buffers from shmem_malloc; global:
# static arrays).  Figures, from PE 0's output: for atomics, each operation's
# latency in us (OSU's "Latency (us)": per-pair time per op, averaged over
# the NP/2 pairs; its "Million ops/s" column is printed with 2 decimals and
# is left out); for put_mr, messages/s summed over the pairs at every size.
# Every launch runs under `timeout` (KILL 10 s later); one that fails or
# times out keeps the figures it printed before (status "partial: rc N")
# or is recorded as missing, its output kept as failed-...out, and the run
# goes on.  Open MPI 4.1.4's OSHMEM aborts in shmem_int_cswap ("stack
# smashing detected", open-mpi/ompi#11257, fixed in 4.1.5), so with
# Debian's Open MPI its atomics rows stop at shmem_int_inc.
# Writes raw.csv (every figure of every launch), summary.csv (one row per
# test, topology, PE count and operation or size: each variant's median
# over rounds, and each variant's median over OSHMEM's (one node) or over
# the defaults' (ours_mpich) in the same topology: for latency below 1 is
# faster, for message rate above 1 is
# faster; put_mr only at the sizes in MR_SIZES) and load.txt (uptime
# before and after) to OUTDIR (default bench-results/osu), and prints the
# summary.
#
# Knobs: ROUNDS (3), NPS ("2 4"), TOPOS ("nodes2 node"), TESTS ("atomics
# put_mr"), IMPLS (the variants, names as above), MR_SIZES ("8 4096
# 1048576"), OSU_MEM (heap), HEAP (512M: put_mr takes 200 MiB of heap),
# TIMEOUT (300 s per launch), OSHMEM_ARGS (more oshrun arguments),
# SUMMARY_ONLY=1 (only summarize OUTDIR/raw.csv).
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

out=${1:-$root/bench-results/osu}
ROUNDS=${ROUNDS:-3}
NPS=${NPS:-2 4}
TOPOS=${TOPOS:-nodes2 node}
TESTS=${TESTS:-atomics put_mr}
IMPLS=${IMPLS:-ours_mpich ours_mpich_am1 ours_mpich_am0 oshmem}
MR_SIZES=${MR_SIZES:-8 4096 1048576}
OSU_MEM=${OSU_MEM:-heap}
HEAP=${HEAP:-512M}
TIMEOUT=${TIMEOUT:-300}
OSHMEM_ARGS=${OSHMEM_ARGS:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
py=/usr/bin/python3
[ -x "$py" ] || py=python3
raw=$out/raw.csv
# shellcheck disable=SC2034 # bench_common.sh's messages use $bench
bench=osu.sh
# shellcheck source=bench/bench_common.sh
. "$here/bench_common.sh"

if [ -z "${SUMMARY_ONLY:-}" ]; then
for t in $TESTS; do
    case $t in atomics | put_mr) ;; *) echo "osu.sh: unknown test $t (atomics, put_mr)" >&2; exit 1 ;; esac
done
case $OSU_MEM in heap | global) ;; *) echo "osu.sh: OSU_MEM is heap or global" >&2; exit 1 ;; esac

progs=
for t in $TESTS; do progs="$progs osu_oshm_$t"; done
# shellcheck disable=SC2086 # one program per word
ours=$(bench_programs OSU_OURS "OMB built with our oshcc on MPICH" $progs)
if [ -n "${OSU_OSHMEM:-}" ]; then
    # shellcheck disable=SC2086
    oshmem=$(bench_programs OSU_OSHMEM "OMB built with Open MPI's oshcc" $progs)
else
    oshmem=
    bench_drop oshmem "no OSU_OSHMEM"
fi

bench_outdir "$out" "variant,test,round,np,topo,key,unit,value,launch_s,status"
# run ROUND TEST TOPO NP IMPL: one launch, its figures into raw.csv.
run() {
    r=$1 t=$2 topo=$3 np=$4 impl=$5
    envs="SHMEM_SYMMETRIC_SIZE=$HEAP"
    case $impl in
    ours_mpich) exe=$ours ;;
    ours_mpich_am1) exe=$ours envs="$envs MPISHMEM_AMO_AM=1" ;;
    ours_mpich_am0) exe=$ours envs="$envs MPISHMEM_AMO_AM=0" ;;
    oshmem) exe=$oshmem envs="$envs SMA_SYMMETRIC_SIZE=$HEAP" ;;
    *) echo "osu.sh: unknown variant $impl" >&2; exit 1 ;;
    esac
    exe=$exe/osu_oshm_$t
    case $topo/$impl in
    nodes2/oshmem) return ;;
    nodes2/*)
        if [ $((np % 2)) -ne 0 ]; then
            echo "osu.sh: NP $np is odd; two pretend nodes need an even one" >&2
            return
        fi
        launch="mpiexec.mpich -launcher fork -hosts a,b -ppn $((np / 2)) -n $np" ;;
    node/oshmem)
        launch="oshrun --allow-run-as-root --oversubscribe --mca opal_common_ucx_opal_mem_hooks 0 $OSHMEM_ARGS -n $np" ;;
    node/*) launch="mpiexec.mpich -n $np" ;;
    *) echo "osu.sh: unknown topology $topo" >&2; exit 1 ;;
    esac
    case $t in atomics) unit=us ;; put_mr) unit=msg_per_s ;; esac
    t0=$(date +%s.%N)
    rc=0
    # shellcheck disable=SC2086 # $envs and $launch hold several words
    timeout -k 10 "$TIMEOUT" env $envs $launch "$exe" "$OSU_MEM" \
        >"$out/last.out" 2>&1 </dev/null || rc=$?
    wall=$(printf %.3f "$(echo "$(date +%s.%N) - $t0" | bc)")
    # PE 0's table: "shmem_int_fadd   0.00   552.47" or "8   62258.75".
    case $t in
    atomics)
        sed -n 's/^\(shmem_[a-z_]*\) *[0-9.]* *\([0-9.][0-9.]*\) *$/\1 \2/p' "$out/last.out" ;;
    put_mr)
        sed -n 's/^\([0-9][0-9]*\) *\([0-9.][0-9.]*\) *$/\1 \2/p' "$out/last.out" ;;
    esac >"$out/last.fig"
    n=$(wc -l <"$out/last.fig")
    if [ "$rc" -eq 0 ] && [ "$n" -gt 0 ]; then
        status=ok
    elif [ "$n" -gt 0 ]; then
        status="partial: rc $rc"
    elif [ "$rc" -ne 0 ]; then
        status="missing: rc $rc"
    else
        status="missing: no figures"
    fi
    if [ "$status" != ok ]; then
        bench_failed "$impl-$t-$topo-np$np-round$r" "$impl $t $topo np=$np round $r: $status"
    fi
    if [ "$n" -eq 0 ]; then
        echo "$impl,$t,$r,$np,$topo,,$unit,,$wall,$status" >>"$raw"
    fi
    while read -r key value; do
        echo "$impl,$t,$r,$np,$topo,$key,$unit,$value,$wall,$status" >>"$raw"
    done <"$out/last.fig"
    echo "osu.sh: round $r $impl $t $topo np=$np: $n figures, launch ${wall}s, $status" >&2
}
one_round() {
    for t in $TESTS; do
        for topo in $TOPOS; do
            for np in $NPS; do
                for impl in $IMPLS; do
                    run "$1" "$t" "$topo" "$np" "$impl"
                done
            done
        done
    done
}
bench_rounds one_round
rm -f "$out/last.out" "$out/last.fig"
fi

export MR_SIZES
bench_summarize <<'EOF'
import collections, csv, os, statistics, sys
raw, out = sys.argv[1], sys.argv[2]
from bench_summary import ratio, summary_writer
mr_sizes = os.environ['MR_SIZES'].split()
vals = collections.defaultdict(list)
rows, variants, units = [], [], {}
for r in csv.DictReader(open(raw)):
    if r['variant'] not in variants:
        variants.append(r['variant'])
    if not r['key'] or r['status'].startswith('missing'):
        continue
    if r['test'] == 'put_mr' and r['key'] not in mr_sizes:
        continue
    k = (r['test'], r['topo'], r['np'], r['key'])
    if k not in units:
        rows.append(k)
        units[k] = r['unit']
    vals[k + (r['variant'],)].append(float(r['value']))
med = {k: statistics.median(v) for k, v in vals.items()}
cnt = {k: len(v) for k, v in vals.items()}
hdr = ['test', 'topo', 'np', 'key', 'unit']
for v in variants:
    hdr += [v, v + '_n']
hdr += [v + '_vs_ours_mpich' for v in variants if v != 'ours_mpich']
hdr += [v + '_vs_oshmem' for v in variants if v != 'oshmem']
w = summary_writer(out)
w.writerow(hdr)
for k in rows:
    row = list(k) + [units[k]]
    for v in variants:
        m = med.get(k + (v,))
        fmt = '%.0f' if units[k] == 'msg_per_s' else '%.6g'
        row += ['' if m is None else fmt % m, cnt.get(k + (v,), 0)]
    for base in ('ours_mpich', 'oshmem'):
        b = med.get(k + (base,))
        for v in variants:
            if v == base:
                continue
            row.append(ratio(med.get(k + (v,)), b))
    w.writerow(row)
EOF
bench_report
