#!/bin/sh
# The OSU Micro-Benchmarks' OpenSHMEM atomics and put message rate tests
# (osu_oshm_atomics, osu_oshm_put_mr) with mpishmem against Open MPI's
# OSHMEM, on this machine (issue 19).
#
#   OSU_SRC=/path/to/osu-micro-benchmarks-7.x sh bench/osu.sh [OUTDIR]
#
# OSU's sources are not part of this repository and never will be (their
# licence is OSU's, their provenance is the user's): fetch OMB 7.x yourself
# (https://mvapich.cse.ohio-state.edu/benchmarks/) and point OSU_SRC at the
# unpacked tree (c/openshmem/ and c/util/ are used) or at one directory
# holding osu_oshm_atomics.c, osu_oshm_put_mr.c, osu_util.h, osu_util_pgas.h
# and osu_util_pgas.c.  The two tests are compiled with
# osu_util_pgas.c and a two-definition file the script writes into
# OUTDIR/build (OSU's `options` and getMicrosecondTimeStamp(), gettimeofday
# in microseconds as OSU's osu_util.c has it), not with osu_util.c, which
# drags in OMB's option parser (osu_util_options.h and configure's output);
# with -DOSHM_1_3 (shmem_init, shmem_malloc), as OMB's configure sets it for
# OpenSHMEM 1.3 libraries, and -DFLOAT_PRECISION=OSU_PRECISION (OSU prints
# 2 decimals unless told otherwise: 0.01 us steps, too coarse for AMOs that
# are CPU atomics on one node; this changes the printing only).  Nothing in
# OSU's sources is changed: iteration counts are OSU's (500 per atomic op;
# 500 puts per size below 8 KiB, 50 from 8 KiB to 4 MiB); these tests have
# no -i option.
#
# Builds each test two ways: with mpishmem on MPICH (the static library of
# the BUILD_MPICH meson tree, made or brought up to date by bench_build
# unless NO_BUILD=1) and with Debian's Open MPI oshcc (OSHMEM).  Then,
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
# faster; put_mr only at the sizes in MR_SIZES), load.txt (uptime before
# and after) and the build logs to OUTDIR (default bench-results/osu), and
# prints the summary.
#
# Knobs: ROUNDS (3), NPS ("2 4"), TOPOS ("nodes2 node"), TESTS ("atomics
# put_mr"), IMPLS (the variants, names as above), MR_SIZES ("8 4096
# 1048576"), OSU_PRECISION (4), OSU_MEM (heap), HEAP (512M: put_mr takes
# 200 MiB of heap), TIMEOUT (300 s per launch), OSU_CFLAGS (-O2),
# OSHMEM_ARGS (more oshrun arguments), BUILD_MPICH (build-mpich),
# NO_BUILD=1, SUMMARY_ONLY=1 (only
# summarize OUTDIR/raw.csv).
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
OSU_CFLAGS=${OSU_CFLAGS:--O2}
OSU_PRECISION=${OSU_PRECISION:-4}
OSHMEM_ARGS=${OSHMEM_ARGS:-}
BUILD_MPICH=${BUILD_MPICH:-$root/build-mpich}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
py=/usr/bin/python3
[ -x "$py" ] || py=python3
raw=$out/raw.csv
# shellcheck disable=SC2034 # bench_common.sh's messages use $bench
bench=osu.sh
# shellcheck source=bench/bench_common.sh
. "$here/bench_common.sh"

if [ -z "${SUMMARY_ONLY:-}" ]; then
if [ -z "${OSU_SRC:-}" ]; then
    echo "osu.sh: set OSU_SRC to the OSU Micro-Benchmarks 7.x sources (the unpacked" >&2
    echo "osu.sh: osu-micro-benchmarks-7.x/ or a directory with osu_oshm_atomics.c," >&2
    echo "osu.sh: osu_oshm_put_mr.c, osu_util.h, osu_util_pgas.h, osu_util_pgas.c)" >&2
    echo "osu.sh: OSU's benchmarks are not shipped here; get them from" >&2
    echo "osu.sh: https://mvapich.cse.ohio-state.edu/benchmarks/" >&2
    exit 2
fi
if [ -f "$OSU_SRC/c/openshmem/osu_oshm_atomics.c" ]; then
    tests_dir=$OSU_SRC/c/openshmem util_dir=$OSU_SRC/c/util
else
    tests_dir=$OSU_SRC util_dir=$OSU_SRC
fi
for f in "$tests_dir/osu_oshm_atomics.c" "$tests_dir/osu_oshm_put_mr.c" \
    "$util_dir/osu_util.h" "$util_dir/osu_util_pgas.h" "$util_dir/osu_util_pgas.c"; do
    if [ ! -f "$f" ]; then
        echo "osu.sh: no $f (OSU_SRC: OMB 7.x's tree, or one directory with its" >&2
        echo "osu.sh: openshmem tests and c/util files)" >&2
        exit 2
    fi
done
tests_dir=$(cd "$tests_dir" && pwd)
util_dir=$(cd "$util_dir" && pwd)
for t in $TESTS; do
    case $t in atomics | put_mr) ;; *) echo "osu.sh: unknown test $t (atomics, put_mr)" >&2; exit 1 ;; esac
done
case $OSU_MEM in heap | global) ;; *) echo "osu.sh: OSU_MEM is heap or global" >&2; exit 1 ;; esac

mkdir -p "$out/bin" "$out/build"
out=$(cd "$out" && pwd)
raw=$out/raw.csv


# What osu_util.c would give the two tests: OSU's option block (only read by
# osu_util_pgas.c's printing helpers, which these tests do not call) and the
# timer behind OSU's TIME().
glue=$out/build/osu_glue.c
cat >"$glue" <<'EOF'
/* Written by mpishmem's bench/osu.sh in place of OMB's osu_util.c. */
#include <sys/time.h>
#include "osu_util.h"

struct options_t options;

double getMicrosecondTimeStamp(void)
{
    struct timeval tv;
    if (gettimeofday(&tv, NULL)) {
        perror("gettimeofday");
        abort();
    }
    return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec;
}
EOF
# build IMPL: OUTDIR/bin/osu_oshm_TEST.IMPL for every test.
build() {
    name=$1
    case $name in
    ours_mpich*) bench_ours "$BUILD_MPICH" mpich; name=ours_mpich ;;
    oshmem) cc=oshcc lib='' ;;
    *) echo "osu.sh: unknown variant $name" >&2; exit 1 ;;
    esac
    for t in $TESTS; do
        exe=$out/bin/osu_oshm_$t.$name
        # shellcheck disable=SC2086 # $cc and the flags hold several words
        bench_compile "$out/build/$t-$name.log" "osu_oshm_$t for $name" \
            $cc $OSU_CFLAGS -DOSHM_1_3 -DFLOAT_PRECISION="$OSU_PRECISION" -I"$util_dir" \
            -o "$exe" "$tests_dir/osu_oshm_$t.c" "$util_dir/osu_util_pgas.c" "$glue" $lib -lm
    done
}
# shellcheck disable=SC2086 # one variant per word
bench_build_variants build $IMPLS

echo "variant,test,round,np,topo,key,unit,value,launch_s,status" >"$raw"
echo "before: $(uptime)" >"$out/load.txt"
# run ROUND TEST TOPO NP IMPL: one launch, its figures into raw.csv.
run() {
    r=$1 t=$2 topo=$3 np=$4 impl=$5
    envs="SHMEM_SYMMETRIC_SIZE=$HEAP"
    case $impl in
    ours_mpich_am1) exe=ours_mpich envs="$envs MPISHMEM_AMO_AM=1" ;;
    ours_mpich_am0) exe=ours_mpich envs="$envs MPISHMEM_AMO_AM=0" ;;
    oshmem) exe=oshmem envs="$envs SMA_SYMMETRIC_SIZE=$HEAP" ;;
    *) exe=$impl ;;
    esac
    exe=$out/bin/osu_oshm_$t.$exe
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
