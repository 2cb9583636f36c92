#!/bin/sh
# Leaving main without shmem_finalize (issue 20, docs/checks.md): every PE
# leaving with status 0 is finalized at exit and the job ends with status
# 0; a PE that leaves while others still run, or with a non-zero status,
# stops the job with a message and a non-zero status, within seconds.
#   no_finalize.sh PATH/TO/no_finalize      (LAUNCH from meson)
prog=${1:?usage: no_finalize.sh PROGRAM}
: "${LAUNCH:?}"
export MPISHMEM_TEST_TIMEOUT=60 SHMEM_SYMMETRIC_SIZE=1M
unset SHMEM_DEBUG SMA_DEBUG
. "$(dirname "$0")/../harness/outcome.sh"
outcome_begin
msg="exited without calling shmem_finalize"

# run NP SHM DEBUG CASE: sets status, secs; output in $tmp/out, $tmp/err.
run()
{
    start=$(date +%s)
    SHMEM_DEBUG=$3 MPISHMEM_SHM=$2 "$LAUNCH" "$1" "$prog" "$4" >"$tmp/out" 2>"$tmp/err"
    status=$?
    secs=$(($(date +%s) - start))
}

report()
{
    runs=$((runs + 1))
    [ -n "$problem" ] && problem="$problem (status $status)"
    outcome "$label ($secs s)"
}

# expect_ok NP SHM DEBUG CASE: status 0, every PE checked its put, and
# stderr silent (SHMEM_DEBUG=1: exactly one warning line).
expect_ok()
{
    label="np $1, shm $2, SHMEM_DEBUG=$3: $4 leaves without shmem_finalize, status 0"
    run "$@"
    problem=
    [ "$status" -eq 0 ] || problem="exit status $status"
    good=$(grep -c "^PE [0-9]* of $1: ok\$" "$tmp/out")
    [ "$good" -eq "$1" ] || problem="${problem:+$problem; }$good of $1 PEs printed ok"
    if [ "$3" = 1 ]; then
        [ "$(grep -c 'mpishmem: warning: all [0-9]* PEs exited without calling shmem_finalize' \
            "$tmp/err")" -eq 1 ] || problem="${problem:+$problem; }not exactly one warning"
    elif grep -q mpishmem "$tmp/err"; then
        problem="${problem:+$problem; }the library wrote to stderr"
    fi
    report
}

# expect_fail NP SHM CASE TEXT: non-zero status, TEXT on stderr, within 30 s.
expect_fail()
{
    label="np $1, shm $2: $3 stops the job with '$4'"
    run "$1" "$2" 0 "$3"
    problem=
    [ "$status" -eq 0 ] && problem="exit status 0"
    [ "$status" -eq 124 ] && problem="timed out"
    [ "$secs" -gt 30 ] && problem="${problem:+$problem; }took $secs s"
    grep -q -F -e "$4" "$tmp/err" || problem="${problem:+$problem; }no '$4' in stderr"
    grep -q "was not stopped" "$tmp/out" && problem="${problem:+$problem; }a PE went on"
    report
}

for shm in 1 0; do
    for np in 1 2 4; do
        expect_ok "$np" "$shm" 0 all
    done
    expect_ok 2 "$shm" 1 all
    expect_ok 2 "$shm" 0 late
    expect_fail 2 "$shm" early "mpishmem: PE 0 $msg while other PEs still ran"
    expect_fail 2 "$shm" exit3 "$msg (exit status 3)"
done
expect_ok 4 1 1 all
expect_fail 3 1 early "mpishmem: PE 0 $msg"
expect_fail 3 1 one3 "mpishmem: PE 2 $msg (exit status 3)"

outcome_end
