#!/bin/sh
# The one-node 8-byte micro-benchmarks of this tree against another git
# revision built beside it, in the same run: put, p, get, g, the AMOs
# (bench/put_get_latency, bench/amo_latency) and the barriers
# (bench/barrier_latency), 2 PEs, defaults, interleaved rounds.
#   sh bench/vs_revision.sh REV [mpich|openmpi] [OUTDIR]
# Knobs: ROUNDS (5), NP (2), BENCH_ITERS, BENCH_REPS (the programs' own).
# Writes OUTDIR/raw.csv (round,version,row,ns) and prints, per row, the
# median over rounds of each version, their ratio (this tree / REV) and
# the spread of the per-round ratios.  A change is "within noise" when the
# spread straddles 1.
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
rev=${1:?usage: sh bench/vs_revision.sh REV [mpich|openmpi] [OUTDIR]}
mpi=${2:-mpich}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${3:-$root/bench-results/vs-revision-$mpi}
rounds=${ROUNDS:-5}
np=${NP:-2}
progs="put_get_latency amo_latency barrier_latency"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# REV's source, as committed, beside this tree's (git archive: no worktree).
rm -rf "$out/base-src"
mkdir -p "$out/base-src"
git -C "$root" archive "$rev" | tar -x -C "$out/base-src"

build() { # SRC DIR
    if [ ! -f "$2/build.ninja" ]; then
        CC=mpicc.$mpi meson setup "$2" "$1" -Dbenchmarks=true >"$2.log" 2>&1 ||
            { tail -20 "$2.log"; echo "vs_revision: configure of $1 failed"; exit 1; }
    fi
    targets=""
    for p in $progs; do targets="$targets bench/$p"; done
    ninja -C "$2" $targets >>"$2.log" 2>&1 ||
        { tail -20 "$2.log"; echo "vs_revision: build in $2 failed"; exit 1; }
}
rm -rf "$out/base"
build "$out/base-src" "$out/base"
build "$root" "$out/current"

case $mpi in
openmpi) launch="mpiexec.openmpi --allow-run-as-root --oversubscribe -n $np" ;;
*) launch="mpiexec.$mpi -n $np" ;;
esac
raw=$out/raw.csv
echo "round,version,row,ns" >"$raw"
# JSON rows ({"bench":NAME,"median_ns":X}) and barrier rows (barrier,NAME,NP,NS).
rows() {
    sed -n -e 's/^{"bench":"\([^"]*\)","median_ns":\([0-9.]*\).*/\1,\2/p' \
           -e 's/^barrier,\([^,]*\),[0-9]*,\([0-9.]*\)$/\1,\2/p'
}
for r in $(seq 1 "$rounds"); do
    for v in base current; do
        for p in $progs; do
            timeout 300 $launch "$out/$v/bench/$p" 2>/dev/null | rows |
                sed "s/^/$r,$v,/" >>"$raw"
        done
    done
done
echo "vs_revision: this tree against $rev, $mpi, $np PEs, $rounds interleaved rounds; load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$raw" <<'EOF'
import csv, statistics, sys
rows = {}
for rec in csv.DictReader(open(sys.argv[1])):
    rows.setdefault(rec['row'], {}).setdefault(rec['version'], {})[rec['round']] = float(rec['ns'])
print(f"{'row':40s} {'base ns':>9s} {'this ns':>9s} {'ratio':>6s}  per-round ratios")
for name, v in rows.items():
    if 'base' not in v or 'current' not in v:
        continue
    common = sorted(set(v['base']) & set(v['current']))
    per = [v['current'][r] / v['base'][r] for r in common if v['base'][r] > 0]
    b = statistics.median(v['base'].values())
    c = statistics.median(v['current'].values())
    spread = f"{min(per):.2f}-{max(per):.2f}" if per else "-"
    print(f"{name:40s} {b:9.1f} {c:9.1f} {c / b if b else 0:6.2f}  {spread}")
EOF
