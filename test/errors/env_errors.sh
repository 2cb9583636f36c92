#!/bin/sh
# Environment variables read by shmem_init: malformed values stop the job
# with a message naming the variable, SMA_* aliases, values that differ
# between PEs, SHMEM_VERSION and SHMEM_INFO.
#   env_errors.sh PATH/TO/env_probe
# Environment from meson: LAUNCH, MPIEXEC, MPIEXEC_FLAGS, MPI_FLAVOR.
prog=${1:?usage: env_errors.sh PROGRAM}
: "${LAUNCH:?}" "${MPIEXEC:?}" "${MPI_FLAVOR:?}"

export MPISHMEM_TEST_TIMEOUT=60
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset SHMEM_SYMMETRIC_SIZE SMA_SYMMETRIC_SIZE SHMEM_DEBUG SMA_DEBUG \
      SHMEM_VERSION SMA_VERSION SHMEM_INFO SMA_INFO MPISHMEM_SHM MPISHMEM_YIELD

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
runs=0

# check LABEL STATUS: compare the last run with the expectations in
# $want_status (ok | fail), $want_err / $want_out (texts that must appear,
# separated by |) and $deny_out (a text that must not appear in stdout).
check()
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
    if [ -n "$deny_out" ] && grep -F -q -e "$deny_out" "$tmp/out"; then
        problem="${problem:+$problem; }unexpected '$deny_out' in stdout"
    fi
    if [ -n "$want_lines" ]; then
        n=$(grep -c -F -e "$want_lines_text" "$tmp/out")
        [ "$n" -eq "$want_lines" ] ||
            problem="${problem:+$problem; }'$want_lines_text' printed $n times, expected $want_lines"
    fi
    if [ -n "$problem" ]; then
        failures=$((failures + 1))
        echo "FAIL: $label: $problem"
        echo "---- stdout"; head -n 30 "$tmp/out"
        echo "---- stderr"; head -n 30 "$tmp/err"
        echo "----"
    else
        echo "ok:   $label"
    fi
    want_status='' want_err='' want_out='' deny_out='' want_lines='' want_lines_text=''
}

# run "VAR=value ..." EXPECTATIONS...: 2 PEs, the same environment on each.
run()
{
    settings=$1
    # shellcheck disable=SC2086 # word splitting of the settings is intended
    env $settings "$LAUNCH" 2 "$prog" >"$tmp/out" 2>"$tmp/err"
    check "$settings" $?
}

fits="env_probe: 2 MiB allocation succeeded"
full="env_probe: 2 MiB allocation failed"

# Malformed sizes.
for v in 12x abc 1.2.3 -1M; do
    want_status=fail want_err="mpishmem: shmem_init: SHMEM_SYMMETRIC_SIZE='$v' is not a valid size"
    run "SHMEM_SYMMETRIC_SIZE=$v"
done
want_status=fail want_err="mpishmem: shmem_init: SMA_SYMMETRIC_SIZE='lots' is not a valid size"
run "SMA_SYMMETRIC_SIZE=lots"

# Which variable sets the heap size, observed through exhaustion.
want_status=ok want_out="$fits"
run "SHMEM_SYMMETRIC_SIZE=4M"
want_status=ok want_out="$full"
run "SHMEM_SYMMETRIC_SIZE=1M"
want_status=ok want_out="$full"
run "SMA_SYMMETRIC_SIZE=1M"
want_status=ok want_out="$fits"
run "SMA_SYMMETRIC_SIZE=4M"
want_status=ok want_out="$fits"
run "SHMEM_SYMMETRIC_SIZE=4M SMA_SYMMETRIC_SIZE=1M"
want_status=ok want_out="$full"
run "SHMEM_SYMMETRIC_SIZE=1M SMA_SYMMETRIC_SIZE=4M"
# A malformed SMA_ value is not even read when SHMEM_ is set.
want_status=ok want_out="$fits"
run "SHMEM_SYMMETRIC_SIZE=2.5M SMA_SYMMETRIC_SIZE=junk"
want_status=ok want_out="$fits"
run "SHMEM_SYMMETRIC_SIZE=2097152"

# Booleans.
want_status=fail want_err="mpishmem: shmem_init: SHMEM_DEBUG='maybe' is not a boolean"
run "SHMEM_DEBUG=maybe"
want_status=fail want_err="mpishmem: shmem_init: SMA_DEBUG='2' is not a boolean"
run "SMA_DEBUG=2"
want_status=fail want_err="mpishmem: shmem_init: MPISHMEM_SHM='sometimes' is not a boolean"
run "MPISHMEM_SHM=sometimes"
want_status=ok want_out="$fits"
run "SHMEM_DEBUG=yes SMA_DEBUG=maybe SHMEM_SYMMETRIC_SIZE=4M"

# SHMEM_VERSION and SHMEM_INFO print from PE 0 only.
want_status=ok want_lines=1 want_lines_text="OpenSHMEM 1.6" deny_out="SHMEM_SYMMETRIC_SIZE"
run "SHMEM_VERSION=1"
want_status=ok want_lines=1 want_lines_text="OpenSHMEM 1.6"
run "SMA_VERSION=1"
want_status=ok deny_out="OpenSHMEM 1.6"
run "SHMEM_VERSION=0"
want_status=ok deny_out="OpenSHMEM 1.6"
run "MPISHMEM_SHM=1"
want_status=ok want_out="SHMEM_SYMMETRIC_SIZE|SHMEM_DEBUG|[3145728, from SHMEM_SYMMETRIC_SIZE]"
want_lines=1 want_lines_text="OpenSHMEM 1.6"
run "SHMEM_INFO=1 SHMEM_SYMMETRIC_SIZE=3M"
want_status=ok want_out="[1048576, from SMA_SYMMETRIC_SIZE]"
run "SMA_INFO=yes SMA_SYMMETRIC_SIZE=1M"

# Settings that must agree across PEs, given per process through an MPMD
# launch (each MPI has its own option for a per-program variable).
mpmd()
{
    var=$1 a=$2 b=$3
    if [ "$MPI_FLAVOR" = openmpi ]; then
        # shellcheck disable=SC2086 # MPIEXEC_FLAGS holds several options
        timeout 60 "$MPIEXEC" $MPIEXEC_FLAGS -n 1 -x "$var=$a" "$prog" : \
            -n 1 -x "$var=$b" "$prog" >"$tmp/out" 2>"$tmp/err"
    else
        # shellcheck disable=SC2086
        timeout 60 "$MPIEXEC" $MPIEXEC_FLAGS -n 1 -env "$var" "$a" "$prog" : \
            -n 1 -env "$var" "$b" "$prog" >"$tmp/out" 2>"$tmp/err"
    fi
    check "MPMD $var=$a : $var=$b" $?
}
want_status=fail want_err="mpishmem: shmem_init: SHMEM_SYMMETRIC_SIZE must be the same on every PE, but values range from 1048576 to 2097152"
mpmd SHMEM_SYMMETRIC_SIZE 1M 2M
want_status=fail want_err="mpishmem: shmem_init: SHMEM_DEBUG must be the same on every PE"
mpmd SHMEM_DEBUG 1 0
want_status=fail want_err="mpishmem: shmem_init: MPISHMEM_SHM must be the same on every PE"
mpmd MPISHMEM_SHM 0 1
# Equal values written differently are the same setting.
want_status=ok want_out="$fits"
mpmd SHMEM_SYMMETRIC_SIZE 4M 4096k

echo "$failures of $runs runs failed"
[ "$failures" -eq 0 ]
