# Shared by the scripts that test environment variables read at shmem_init
# (test/errors/env_errors.sh, test/spaces/spaces_env.sh).
#   . "$MESON_SOURCE_ROOT/test/harness/env_check.sh"
#   env_check_init PROGRAM
#   want_status=ok|fail want_err='a|b' want_out='c' [deny_out=..]
#       [want_lines=N want_lines_text=..]
#   env_run "VAR=value ..." [ARGS...]     # 2 PEs, the same environment on each
#   env_mpmd VAR A B [ARGS...]            # PE 0 with VAR=A, PE 1 with VAR=B
#   env_check_done                        # summary; non-zero on any failure
# Environment from meson: LAUNCH, MPIEXEC, MPIEXEC_FLAGS, MPI_FLAVOR.

. "${MESON_SOURCE_ROOT:?}/test/harness/outcome.sh"

env_check_init()
{
    env_prog=${1:?usage: env_check_init PROGRAM}
    : "${LAUNCH:?}" "${MPIEXEC:?}" "${MPI_FLAVOR:?}"
    export MPISHMEM_TEST_TIMEOUT=60
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    outcome_begin
}

# env_check LABEL STATUS: the last run against the want_* expectations.
env_check()
{
    label=$1 status=$2
    runs=$((runs + 1))
    problem=
    case $want_status in
        ok) [ "$status" -eq 0 ] || problem="exit status $status, expected 0" ;;
        fail) [ "$status" -ne 0 ] || problem="exit status 0, expected non-zero" ;;
    esac
    [ "$status" -eq 124 ] && problem="timed out"
    for pair in "err:$want_err" "out:$want_out"; do
        stream=${pair%%:*} texts=${pair#*:}
        IFS='|'
        for text in $texts; do
            unset IFS
            grep -F -q -e "$text" "$tmp/$stream" ||
                problem="${problem:+$problem; }no '$text' in std$stream"
        done
        unset IFS
    done
    if [ -n "${deny_out:-}" ] && grep -F -q -e "$deny_out" "$tmp/out"; then
        problem="${problem:+$problem; }unexpected '$deny_out' in stdout"
    fi
    if [ -n "${want_lines:-}" ]; then
        n=$(grep -c -F -e "$want_lines_text" "$tmp/out")
        [ "$n" -eq "$want_lines" ] ||
            problem="${problem:+$problem; }'$want_lines_text' printed $n times, expected $want_lines"
    fi
    outcome "$label"
    want_status='' want_err='' want_out='' deny_out='' want_lines='' want_lines_text=''
}

env_run()
{
    settings=$1
    shift
    # shellcheck disable=SC2086 # word splitting of the settings is intended
    env $settings "$LAUNCH" 2 "$env_prog" "$@" >"$tmp/out" 2>"$tmp/err"
    env_check "$settings${1:+ $*}" $?
}

# Each MPI has its own option for a per-program variable.
env_mpmd()
{
    var=$1 a=$2 b=$3
    shift 3
    if [ "$MPI_FLAVOR" = openmpi ]; then
        # shellcheck disable=SC2086 # MPIEXEC_FLAGS holds several options
        timeout 60 "$MPIEXEC" $MPIEXEC_FLAGS -n 1 -x "$var=$a" "$env_prog" "$@" : \
            -n 1 -x "$var=$b" "$env_prog" "$@" >"$tmp/out" 2>"$tmp/err"
    else
        # shellcheck disable=SC2086
        timeout 60 "$MPIEXEC" $MPIEXEC_FLAGS -n 1 -env "$var" "$a" "$env_prog" "$@" : \
            -n 1 -env "$var" "$b" "$env_prog" "$@" >"$tmp/out" 2>"$tmp/err"
    fi
    env_check "MPMD $var=$a : $var=$b${1:+ $*}" $?
}

env_check_done()
{
    outcome_end
}
