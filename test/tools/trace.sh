#!/bin/sh
# The communication map (MPISHMEM_TRACE, docs/tools.md) at 4 PEs, with the
# load/store path on and off:
#   - examples/02_ring.c, trace_ring N B and trace_ring N B mixed (2 threads,
#     every kind) give exactly the expected CSV matrix;
#   - mpishmem-trace turns it into a PNG that reads back with the right
#     size, inflates to the right length and is not one flat colour;
#   - unset or empty MPISHMEM_TRACE writes nothing; an unwritable path stops
#     shmem_init (not shmem_finalize) on every PE with its message and a
#     non-zero status, within seconds;
#   - a symlink at the trace path is replaced by the CSV, its target kept;
#     no temporary file (.FILE.mpishmem-XXXXXX) is left behind;
#   - mpishmem-trace rejects a missing or malformed CSV with a message.
#   trace.sh RING_EXAMPLE TRACE_RING MPISHMEM_TRACE_TOOL
ring=${1:?usage: trace.sh ring trace_ring mpishmem-trace}
prog=${2:?}
tool=${3:?}
launch=${LAUNCH:?}
abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
ring=$(abs "$ring") prog=$(abs "$prog") tool=$(abs "$tool")
check="python3 $(dirname "$0")/trace_check.py"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
np=4 n=5 b=24
fail() { echo "FAIL: $*"; exit 1; }

for shm in 1 0; do
    export MPISHMEM_SHM=$shm
    MPISHMEM_TRACE=$tmp/ring.csv nice -n 10 "$launch" $np "$ring" >"$tmp/out" 2>&1 ||
        { cat "$tmp/out"; fail "ring example (shm $shm)"; }
    $check csv "$tmp/ring.csv" $np ring || fail "ring example matrix (shm $shm)"
    MPISHMEM_TRACE=$tmp/plain.csv nice -n 10 "$launch" $np "$prog" $n $b >"$tmp/out" 2>&1 ||
        { cat "$tmp/out"; fail "trace_ring (shm $shm)"; }
    $check csv "$tmp/plain.csv" $np plain $n $b || fail "trace_ring matrix (shm $shm)"
    MPISHMEM_TRACE=$tmp/mixed.csv nice -n 10 "$launch" $np "$prog" $n $b mixed >"$tmp/out" 2>&1 ||
        { cat "$tmp/out"; fail "trace_ring mixed (shm $shm)"; }
    $check csv "$tmp/mixed.csv" $np mixed $n $b || fail "trace_ring mixed matrix (shm $shm)"
done
unset MPISHMEM_SHM

# PNGs: 5 panels of 4x4 cells of 8 pixels with 4-pixel gaps; one total
# panel; the default cell (32 pixels up to 8 PEs).
"$tool" --cell 8 -o "$tmp/ring.png" "$tmp/ring.csv" || fail "mpishmem-trace (panels)"
$check png "$tmp/ring.png" $((5 * np * 8 + 4 * 4)) $((np * 8)) || fail "panels PNG"
"$tool" --cell 3 --kind total --metric ops -o "$tmp/total.png" "$tmp/mixed.csv" ||
    fail "mpishmem-trace (total, ops)"
$check png "$tmp/total.png" $((np * 3)) $((np * 3)) || fail "total PNG"
"$tool" --kind put "$tmp/plain.csv" >/dev/null || fail "mpishmem-trace (default output name)"
$check png "$tmp/plain.png" $((np * 32)) $((np * 32)) || fail "PNG named after the CSV"

# Off: unset or empty writes no file (the run's directory stays empty).
mkdir "$tmp/off" && cd "$tmp/off" || exit 1
(unset MPISHMEM_TRACE; nice -n 10 "$launch" $np "$prog" 2 8 >../out 2>&1) || fail "trace off"
MPISHMEM_TRACE= nice -n 10 "$launch" $np "$prog" 2 8 >../out 2>&1 || fail "trace empty"
[ -z "$(ls -A .)" ] || fail "trace off wrote $(ls -A .)"
cd "$tmp" || exit 1

# A path that cannot be written stops shmem_init on every PE, at 2 PEs and
# at 4: trace_ring prints "past shmem_init" once shmem_init returns.
expect_init_stop() { # np path label
    start=$(date +%s)
    if MPISHMEM_TRACE=$2 timeout 60 nice -n 10 "$launch" $1 "$prog" 2 8 >"$tmp/out" 2>&1; then
        fail "$3: exit status 0"
    fi
    took=$(($(date +%s) - start))
    [ "$took" -le 30 ] || { cat "$tmp/out"; fail "$3: took $took s"; }
    grep -q -F "mpishmem: shmem_init: cannot write trace file $2 (MPISHMEM_TRACE): " "$tmp/out" ||
        { cat "$tmp/out"; fail "$3: no message naming MPISHMEM_TRACE and the path"; }
    ! grep -q "past shmem_init" "$tmp/out" ||
        { cat "$tmp/out"; fail "$3: a PE got past shmem_init"; }
}
expect_init_stop 2 /nonexistent-dir/x.csv "trace path in a missing directory (2 PEs)"
grep -q "No such file or directory" "$tmp/out" || { cat "$tmp/out"; fail "no OS error"; }
expect_init_stop $np "$tmp/no/such/dir/t.csv" "trace path in a missing directory ($np PEs)"
mkdir "$tmp/isdir.csv"
expect_init_stop 2 "$tmp/isdir.csv" "trace path that is a directory"
if [ "$(id -u)" -ne 0 ]; then # root writes into read-only directories
    mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
    expect_init_stop 2 "$tmp/ro/t.csv" "trace path in a read-only directory"
    grep -q "Permission denied" "$tmp/out" || { cat "$tmp/out"; fail "read-only: no OS error"; }
    chmod 755 "$tmp/ro"
fi

# A symlink at the trace path: rename replaces the link, the target keeps
# its content, and the CSV is a regular file at the path.
mkdir "$tmp/link" || exit 1
printf 'keep me\n' >"$tmp/link/target.txt"
ln -s "$tmp/link/target.txt" "$tmp/link/t.csv"
MPISHMEM_TRACE=$tmp/link/t.csv nice -n 10 "$launch" 2 "$prog" $n $b >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; fail "trace_ring with a symlink at the trace path"; }
[ -f "$tmp/link/t.csv" ] && [ ! -L "$tmp/link/t.csv" ] ||
    fail "symlink at the trace path: not replaced by a regular file"
[ "$(cat "$tmp/link/target.txt")" = "keep me" ] ||
    fail "symlink at the trace path: its target was written"
$check csv "$tmp/link/t.csv" 2 plain $n $b || fail "symlink at the trace path: matrix"
[ "$(ls -A "$tmp/link" | sort | tr '\n' ' ')" = "t.csv target.txt " ] ||
    fail "temporary files left: $(ls -A "$tmp/link")"

# The tool's errors.
expect_tool_error() { # pattern, args...
    pat=$1; shift
    if "$tool" "$@" >"$tmp/out" 2>&1; then fail "mpishmem-trace $* succeeded"; fi
    grep -q "$pat" "$tmp/out" || { cat "$tmp/out"; fail "mpishmem-trace $*: no '$pat'"; }
}
expect_tool_error "mpishmem-trace: cannot read $tmp/missing.csv" "$tmp/missing.csv"
printf 'a,b\n' >"$tmp/bad1.csv"
expect_tool_error "mpishmem-trace: $tmp/bad1.csv:1: not a trace file" "$tmp/bad1.csv"
printf 'source_pe,target_pe,kind,ops,bytes\n0,1,put,x,8\n' >"$tmp/bad2.csv"
expect_tool_error "$tmp/bad2.csv:2: PE numbers, ops and bytes must be integers" "$tmp/bad2.csv"
printf 'source_pe,target_pe,kind,ops,bytes\n0,1,send,1,8\n' >"$tmp/bad3.csv"
expect_tool_error "$tmp/bad3.csv:2: unknown kind 'send'" "$tmp/bad3.csv"
printf 'source_pe,target_pe,kind,ops,bytes\n0,1,put,1\n' >"$tmp/bad4.csv"
expect_tool_error "$tmp/bad4.csv:2: expected 5 fields" "$tmp/bad4.csv"
printf 'source_pe,target_pe,kind,ops,bytes\n' >"$tmp/bad5.csv"
expect_tool_error "$tmp/bad5.csv: no rows" "$tmp/bad5.csv"
echo "ok: trace matrices, PNGs, off, bad paths stop shmem_init, symlink replaced, tool errors"
