# Shared by the misuse scripts: run a program that misuses the library and
# check that the job stops with a non-zero status and the library's message.
#   . "$MESON_SOURCE_ROOT/test/harness/expect_fail.sh"
#   expect_fail_init PROGRAM
#   expect DEBUG SHM CASE TEXT...     # 2 PEs; every TEXT must be on stderr
#   EXPECT_NP=3 expect ...            # another PE count
#   EXPECT_WITHIN=5 expect ...        # also: stopped within 5 s, by the
#                                     # library (no signal, no glibc abort)
#   expect_warn DEBUG SHM CASE TEXT... # status 0, TEXT on stderr, one warning line
#   expect_fail_done                  # prints the summary; returns non-zero on failure
# Environment from meson: LAUNCH (the test launcher).

. "${MESON_SOURCE_ROOT:?}/test/harness/launcher_crash.sh"

expect_fail_init()
{
    expect_prog=${1:?usage: expect_fail_init PROGRAM}
    : "${LAUNCH:?LAUNCH must name the test launcher}"
    export MPISHMEM_TEST_TIMEOUT=${MPISHMEM_TEST_TIMEOUT:-60} # a hang is a failure
    export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-1M}
    unset SHMEM_DEBUG SMA_DEBUG
    expect_tmp=$(mktemp -d) || exit 1
    trap 'rm -rf "$expect_tmp"' EXIT
    expect_failures=0
    expect_runs=0
}

expect()
{
    debug=$1 shm=$2 case=$3
    shift 3
    label="$case (SHMEM_DEBUG=$debug MPISHMEM_SHM=$shm)"
    expect_runs=$((expect_runs + 1))
    limit=${EXPECT_WITHIN:+$((EXPECT_WITHIN * 4))}
    for attempt in 1 2; do
        start=$(date +%s%N)
        SHMEM_DEBUG=$debug MPISHMEM_SHM=$shm MPISHMEM_TEST_TIMEOUT=${limit:-$MPISHMEM_TEST_TIMEOUT} \
            "$LAUNCH" "${EXPECT_NP:-2}" "$expect_prog" "$case" >"$expect_tmp/out" 2>"$expect_tmp/err"
        status=$?
        # Only Open MPI's launcher crashed (launcher_crash.sh): once more.
        only_launcher_crashed "$expect_tmp/err" && [ "$attempt" -eq 1 ] &&
            { echo "note: $label: Open MPI's launcher crashed, not a PE: once more"; continue; }
        break
    done
    ms=$((($(date +%s%N) - start) / 1000000))
    problem=
    [ "$status" -eq 0 ] && problem="exit status 0"
    [ "$status" -eq 124 ] && problem="timed out"
    if [ -n "${EXPECT_WITHIN:-}" ]; then
        [ "$ms" -gt $((EXPECT_WITHIN * 1000)) ] &&
            problem="${problem:+$problem; }took $ms ms, more than $EXPECT_WITHIN s"
        # A stop by the library is MPI_Abort or exit: a small status and
        # no crash report from glibc, MPI or the shell.
        [ "$status" -ge 124 ] && problem="${problem:+$problem; }status $status (a signal?)"
        if grep -E -q -i "double free|corrupt|segmentation|signal [0-9]|core dumped|bad termination" \
            "$expect_tmp/err" "$expect_tmp/out"; then
            problem="${problem:+$problem; }a crash report in the output"
        fi
    fi
    for text in "$@"; do
        grep -F -q -e "$text" "$expect_tmp/err" || problem="${problem:+$problem; }no '$text' in stderr"
    done
    if [ -n "$problem" ]; then
        expect_failures=$((expect_failures + 1))
        echo "FAIL: $label: $problem (status $status)"
        echo "---- stdout"; cat "$expect_tmp/out"
        echo "---- stderr"; head -n 40 "$expect_tmp/err"
        echo "----"
    else
        echo "ok:   $label"
    fi
}

# expect_warn DEBUG SHM CASE TEXT...: the job finishes with status 0 and
# its stderr holds every TEXT and exactly one line with "warning".
expect_warn()
{
    debug=$1 shm=$2 case=$3
    shift 3
    label="$case (SHMEM_DEBUG=$debug MPISHMEM_SHM=$shm, warns)"
    expect_runs=$((expect_runs + 1))
    SHMEM_DEBUG=$debug MPISHMEM_SHM=$shm "$LAUNCH" "${EXPECT_NP:-2}" "$expect_prog" "$case" \
        >"$expect_tmp/out" 2>"$expect_tmp/err"
    status=$?
    problem=
    [ "$status" -ne 0 ] && problem="exit status $status"
    for text in "$@"; do
        grep -F -q -e "$text" "$expect_tmp/err" || problem="${problem:+$problem; }no '$text' in stderr"
    done
    warnings=$(grep -c "warning" "$expect_tmp/err")
    [ "$warnings" -eq 1 ] || problem="${problem:+$problem; }$warnings warning lines, not 1"
    if [ -n "$problem" ]; then
        expect_failures=$((expect_failures + 1))
        echo "FAIL: $label: $problem"
        echo "---- stdout"; cat "$expect_tmp/out"
        echo "---- stderr"; head -n 40 "$expect_tmp/err"
        echo "----"
    else
        echo "ok:   $label"
    fi
}

expect_fail_done()
{
    echo "$expect_failures of $expect_runs runs failed"
    [ "$expect_failures" -eq 0 ]
}
