# One case's verdict, for the scripts that run a program and judge what it
# printed (env_check.sh, test/errors/global_exit.sh, no_finalize.sh):
#   outcome LABEL
# reads $problem (empty: passed) and $tmp/out, $tmp/err; counts $failures.
outcome()
{
    if [ -n "$problem" ]; then
        failures=$((failures + 1))
        echo "FAIL: $1: $problem"
        echo "---- stdout"; head -n 30 "$tmp/out"
        echo "---- stderr"; head -n 30 "$tmp/err"
        echo "----"
    else
        echo "ok:   $1"
    fi
}

# The frame around the cases: a scratch folder ($tmp, removed at exit) and
# the counters, then one summary line and the status.
outcome_begin()
{
    tmp=$(mktemp -d) || exit 1
    trap 'rm -rf "$tmp"' EXIT
    failures=0
    runs=0
}

outcome_end()
{
    echo "$failures of $runs runs failed"
    [ "$failures" -eq 0 ]
}
