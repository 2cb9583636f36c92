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
