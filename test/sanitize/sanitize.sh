#!/bin/sh
# Programs built with -fsanitize=address,undefined and linked with the
# library run clean at 2 PEs, with the node's shared memory on and off
# (issue 20: the load-time copy of the program's globals onto shared memory
# used to trip ASan before main), and ASan still catches an overflow of a
# global after shmem_init (the shadow survives the remap).
#   sanitize.sh LIBRARY   (libmpishmem.a or .so; CC, LAUNCH, MESON_SOURCE_ROOT
#                          from meson; docs/globals.md, Sanitizers)
# Skipped (77) when CC cannot link a program with -fsanitize=address.
set -u
lib=${1:?library}
src=${MESON_SOURCE_ROOT:?}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

flags="-fsanitize=address,undefined -fno-omit-frame-pointer -g -O1"
echo 'int main(void) { return 0; }' >"$tmp/probe.c"
if ! $CC $flags "$tmp/probe.c" -o "$tmp/probe" >"$tmp/probe.log" 2>&1; then
    echo "skip: $CC cannot link with -fsanitize=address:"
    head -n 5 "$tmp/probe.log"
    exit 77
fi

# The link line of mpishmem.pc (the archive, whole) or of
# mpishmem-shared.pc (the shared library, by rpath).
case $lib in
*.a) link="-Wl,--whole-archive $lib -Wl,--no-whole-archive" ;;
*) link="$lib -Wl,-rpath,$(dirname "$lib")" ;;
esac

# Leaks are not checked: MPI libraries (MPICH, Open MPI and their
# transports) keep allocations to the end that LeakSanitizer reports by the
# hundred, none of them ours to fix.  UBSan stops at its first report.
# Nothing else is needed for Open MPI 4.1 or MPICH 4.0 (ch4:ucx): their
# memory hooks (opal's patcher, UCX's ucm) and ASan's interceptors get on.
export ASAN_OPTIONS=detect_leaks=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export MPISHMEM_TEST_TIMEOUT=60
failures=0

fail()
{
    failures=$((failures + 1))
    echo "FAIL: $*"
    head -n 60 "$tmp/out"
}

# Globals and heap through every kind of transfer; the load/store path's own
# test (fork included); the tutorial's ring.
progs="test/sanitize/sanitize_prog.c test/globals/globals_shm.c examples/02_ring.c"
for p in $progs; do
    exe=$tmp/$(basename "$p" .c)
    if ! $CC $flags -I"$src/include" "$src/$p" $link -o "$exe" >"$tmp/out" 2>&1; then
        fail "cannot build $p with $flags"
        continue
    fi
    for shm in 1 0; do
        MPISHMEM_SHM=$shm "${LAUNCH:?}" 2 "$exe" >"$tmp/out" 2>&1
        rc=$?
        if [ "$rc" -ne 0 ] || grep -Eq 'Sanitizer|runtime error:' "$tmp/out"; then
            fail "$p at 2 PEs, MPISHMEM_SHM=$shm: exit status $rc"
        else
            echo "ok:   $p at 2 PEs, MPISHMEM_SHM=$shm"
        fi
    done
done

# ASan is live: a read past a global array after shmem_init stops the job.
# UBSan sees the same read (-fsanitize=object-size) first; it must not halt.
for shm in 1 0; do
    UBSAN_OPTIONS=halt_on_error=0 MPISHMEM_SHM=$shm "$LAUNCH" 2 "$tmp/sanitize_prog" overflow >"$tmp/out" 2>&1
    rc=$?
    # (after shmem_init, in main: not a report from the library's set-up)
    if [ "$rc" -ne 0 ] && grep -q 'initialised; reading past the end' "$tmp/out" &&
        grep -q 'SUMMARY: AddressSanitizer: global-buffer-overflow .*sanitize_prog.c:[0-9]* in main' \
            "$tmp/out" && ! grep -q 'ASan missed it' "$tmp/out"; then
        echo "ok:   ASan caught a global-buffer-overflow, MPISHMEM_SHM=$shm"
    else
        fail "no global-buffer-overflow report, MPISHMEM_SHM=$shm: exit status $rc"
    fi
done

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
