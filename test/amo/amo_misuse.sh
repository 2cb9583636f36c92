#!/bin/sh
# Runs amo_misuse once per mistake and checks that the job stops with a
# non-zero status and the library's message on stderr.
#   amo_misuse.sh PATH/TO/amo_misuse
# Environment from meson: LAUNCH (the test launcher).
prog=${1:?usage: amo_misuse.sh PROGRAM}
: "${LAUNCH:?LAUNCH must name the test launcher}"

export MPISHMEM_TEST_TIMEOUT=60 # a hang is killed and counted as a failure
export SHMEM_SYMMETRIC_SIZE=1M
unset SHMEM_DEBUG SMA_DEBUG

out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
failed=0
total=0

# check DEBUG SHM CASE TEXT...: every TEXT must be on stderr.
check()
{
    debug=$1 shm=$2 name=$3
    shift 3
    total=$((total + 1))
    SHMEM_DEBUG=$debug MPISHMEM_SHM=$shm "$LAUNCH" 2 "$prog" "$name" >"$out/stdout" 2>"$out/stderr"
    rc=$?
    why=
    [ "$rc" -eq 0 ] && why="exit status 0"
    [ "$rc" -eq 124 ] && why="timed out"
    for text in "$@"; do
        grep -F -q -e "$text" "$out/stderr" || why="${why:+$why; }'$text' not on stderr"
    done
    if [ -n "$why" ]; then
        failed=$((failed + 1))
        echo "FAIL: $name (SHMEM_DEBUG=$debug MPISHMEM_SHM=$shm): $why (status $rc)"
        echo "---- stderr"; head -n 30 "$out/stderr"; echo "----"
    else
        echo "ok:   $name (SHMEM_DEBUG=$debug MPISHMEM_SHM=$shm)"
    fi
}

for shm in 1 0; do
    # An invalid sig_op is rejected whether or not SHMEM_DEBUG is on.
    for debug in 0 1; do
        check "$debug" "$shm" sig_op_put "mpishmem: shmem_long_put_signal: " "sig_op 99"
        check "$debug" "$shm" sig_op_putmem_nbi "mpishmem: shmem_putmem_signal_nbi: " "sig_op -1"
        check "$debug" "$shm" sig_op_empty "mpishmem: shmem_put64_signal: " "sig_op 2"
    done
    check 1 "$shm" amo_misaligned "mpishmem: shmem_int_atomic_add: " "is not aligned"
    check 1 "$shm" amo_misaligned_global "mpishmem: shmem_long_atomic_fetch_inc: " "is not aligned"
    check 1 "$shm" lock_private "mpishmem: shmem_set_lock: " "is not a symmetric variable"
done

echo "$failed of $total runs failed"
[ "$failed" -eq 0 ]
