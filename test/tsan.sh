#!/bin/sh
# Runs the threaded context tests under ThreadSanitizer (MPICH build).
#   sh test/tsan.sh          # from the top of the tree; prints "tsan: ok" or the reports
# UCX's memory hooks (used by MPICH's ch4:ucx) intercept madvise on thread
# exit and crash under TSan, so they are turned off for the run.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir="$top/build-tsan"
progs="ctx_threads ctx_complete_race ctx_lock_threads"
rm -rf "$dir"
CC=mpicc.mpich meson setup "$dir" -Db_sanitize=thread -Dbuildtype=debugoptimized \
    -Dbenchmarks=false >"$dir.setup.log" 2>&1 && ninja -C "$dir" $(printf 'test/%s ' $progs) >/dev/null ||
    { cat "$dir.setup.log"; echo "tsan: build failed"; exit 1; }
status=0
for prog in $progs; do
for shm in 1 0; do
    out="$dir/tsan-$prog-shm$shm.out"
    UCX_MEM_MMAP_HOOK_MODE=none UCX_MEM_MALLOC_HOOKS=no UCX_MEM_EVENTS=no \
        TSAN_OPTIONS="halt_on_error=0 exitcode=66" MPISHMEM_SHM=$shm SHMEM_SYMMETRIC_SIZE=8M \
        timeout 600 mpiexec.mpich -n 2 "$dir/test/$prog" >"$out" 2>&1
    rc=$?
    reports=$(grep -c "WARNING: ThreadSanitizer" "$out")
    if [ "$rc" -ne 0 ] || [ "$reports" -ne 0 ]; then
        echo "tsan: $prog MPISHMEM_SHM=$shm: exit $rc, $reports report(s)"
        head -80 "$out"
        status=1
    fi
done
done
[ "$status" -eq 0 ] && echo "tsan: ok"
exit "$status"
