#!/bin/sh
# The memory-space environment: which spaces shmem_init enables, the
# default space, size precedence, failures with a message naming the
# variable, values that differ between PEs (MPMD launches), per-PE device
# visibility, and misuse messages.
#   spaces_env.sh PATH/TO/space_probe
# Environment from meson: LAUNCH, MPIEXEC, MPIEXEC_FLAGS, MPI_FLAVOR.
prog=${1:?usage: spaces_env.sh PROGRAM}
: "${LAUNCH:?}" "${MPIEXEC:?}" "${MPI_FLAVOR:?}"

export MPISHMEM_TEST_TIMEOUT=60
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset SHMEM_SYMMETRIC_SIZE SMA_SYMMETRIC_SIZE SHMEM_DEBUG SMA_DEBUG SHMEM_INFO \
      SHMEM_ENABLE_CPU_SPACE SHMEM_ENABLE_GPU_SPACE SHMEM_DEFAULT_SPACE \
      SHMEM_CPU_SYMMETRIC_SIZE SHMEM_GPU_SYMMETRIC_SIZE MPISHMEM_VISIBLE_DEVICES

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
runs=0

# check LABEL STATUS: the last run against $want_status (ok | fail) and
# $want_err / $want_out (texts that must appear, separated by |).
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
    if [ -n "$problem" ]; then
        failures=$((failures + 1))
        echo "FAIL: $label: $problem"
        echo "---- stdout"; head -n 20 "$tmp/out"
        echo "---- stderr"; head -n 20 "$tmp/err"
        echo "----"
    else
        echo "ok:   $label"
    fi
    want_status='' want_err='' want_out=''
}

# run "VAR=value ..." [MODE]: 2 PEs, the same environment on each.
run()
{
    settings=$1
    # shellcheck disable=SC2086 # word splitting of the settings is intended
    env $settings "$LAUNCH" 2 "$prog" ${2:-state} >"$tmp/out" 2>"$tmp/err"
    check "$settings ${2:-state}" $?
}

# mpmd VAR A B [MODE]: PE 0 runs with VAR=A, PE 1 with VAR=B.
mpmd()
{
    var=$1 a=$2 b=$3 mode=${4:-state}
    if [ "$MPI_FLAVOR" = openmpi ]; then
        # shellcheck disable=SC2086 # MPIEXEC_FLAGS holds several options
        timeout 60 "$MPIEXEC" $MPIEXEC_FLAGS -n 1 -x "$var=$a" "$prog" "$mode" : \
            -n 1 -x "$var=$b" "$prog" "$mode" >"$tmp/out" 2>"$tmp/err"
    else
        # shellcheck disable=SC2086
        timeout 60 "$MPIEXEC" $MPIEXEC_FLAGS -n 1 -env "$var" "$a" "$prog" "$mode" : \
            -n 1 -env "$var" "$b" "$prog" "$mode" >"$tmp/out" 2>"$tmp/err"
    fi
    check "MPMD $var=$a : $var=$b $mode" $?
}

state_default="default=CPU cpu=available gpu=unavailable team_cpu=world team_gpu=invalid"

# No spaces variables: the CPU space is enabled and is the default.
want_status=ok want_out="PE 0: $state_default alloc2M=ok dynamic_cpu=member|PE 1: $state_default"
run ""
want_status=ok want_out="$state_default"
run "SHMEM_DEFAULT_SPACE=CPU"
want_status=ok want_out="$state_default"
run "SHMEM_DEFAULT_SPACE=cpu SHMEM_ENABLE_CPU_SPACE=yes"
want_status=ok want_out="$state_default"
run "SHMEM_ENABLE_CPU_SPACE=1 SHMEM_ENABLE_GPU_SPACE=1"
want_status=ok want_out="$state_default"
run "SHMEM_ENABLE_GPU_SPACE=0"

# No GPU: requesting one is a clear failure, never a silent fallback.
want_status=fail want_err="mpishmem: shmem_init: SHMEM_DEFAULT_SPACE=GPU, but the GPU space is not available on every PE|no GPU:"
run "SHMEM_DEFAULT_SPACE=GPU"
want_status=fail want_err="mpishmem: shmem_init: no memory space can be the default: the CPU space is not enabled"
run "SHMEM_ENABLE_GPU_SPACE=1"
want_status=fail want_err="mpishmem: shmem_init: both memory spaces are disabled"
run "SHMEM_ENABLE_CPU_SPACE=0"
want_status=fail want_err="mpishmem: shmem_init: SHMEM_DEFAULT_SPACE=CPU, but SHMEM_ENABLE_CPU_SPACE disables the CPU space"
run "SHMEM_ENABLE_CPU_SPACE=off SHMEM_DEFAULT_SPACE=CPU"
want_status=fail want_err="mpishmem: shmem_init: SHMEM_DEFAULT_SPACE=GPU, but SHMEM_ENABLE_GPU_SPACE disables the GPU space"
run "SHMEM_ENABLE_GPU_SPACE=0 SHMEM_DEFAULT_SPACE=GPU"
want_status=fail want_err="mpishmem: shmem_init: SHMEM_DEFAULT_SPACE='FPGA' is neither CPU nor GPU"
run "SHMEM_DEFAULT_SPACE=FPGA"
want_status=fail want_err="mpishmem: shmem_init: SHMEM_CPU_SYMMETRIC_SIZE='lots' is not a valid size"
run "SHMEM_CPU_SYMMETRIC_SIZE=lots"
want_status=fail want_err="mpishmem: shmem_init: SHMEM_GPU_SYMMETRIC_SIZE='1x' is not a valid size"
run "SHMEM_GPU_SYMMETRIC_SIZE=1x"
want_status=fail want_err="mpishmem: shmem_init: MPISHMEM_VISIBLE_DEVICES='cpu,tpu': 'tpu' is not a device"
run "MPISHMEM_VISIBLE_DEVICES=cpu,tpu"

# Size precedence: the default (CPU) space takes SHMEM_CPU_SYMMETRIC_SIZE
# over SHMEM_SYMMETRIC_SIZE; SHMEM_GPU_SYMMETRIC_SIZE does not apply to it.
want_status=ok want_out="alloc2M=ok"
run "SHMEM_SYMMETRIC_SIZE=1M SHMEM_CPU_SYMMETRIC_SIZE=4M"
want_status=ok want_out="alloc2M=null"
run "SHMEM_SYMMETRIC_SIZE=4M SHMEM_CPU_SYMMETRIC_SIZE=1M"
want_status=ok want_out="alloc2M=null"
run "SHMEM_CPU_SYMMETRIC_SIZE=1M"
want_status=ok want_out="alloc2M=ok"
run "SHMEM_SYMMETRIC_SIZE=4M SHMEM_GPU_SYMMETRIC_SIZE=1M"
want_status=ok want_out="alloc2M=null"
run "SHMEM_SYMMETRIC_SIZE=1M SHMEM_GPU_SYMMETRIC_SIZE=4M"

# SHMEM_INFO describes the spaces and, when GPU discovery ran, the GPU.
want_status=ok want_out="SHMEM_DEFAULT_SPACE|MPISHMEM_VISIBLE_DEVICES|[CPU on, GPU on]|PE 0 GPU: no GPU"
run "SHMEM_INFO=1 SHMEM_ENABLE_CPU_SPACE=1 SHMEM_ENABLE_GPU_SPACE=1"

# Spaces variables must agree on every PE.
for v in SHMEM_ENABLE_CPU_SPACE SHMEM_ENABLE_GPU_SPACE; do
    want_status=fail want_err="mpishmem: shmem_init: $v must be the same on every PE"
    mpmd "$v" 1 0
done
want_status=fail want_err="mpishmem: shmem_init: SHMEM_DEFAULT_SPACE must be the same on every PE"
mpmd SHMEM_DEFAULT_SPACE CPU GPU
want_status=fail want_err="mpishmem: shmem_init: SHMEM_CPU_SYMMETRIC_SIZE must be the same on every PE"
mpmd SHMEM_CPU_SYMMETRIC_SIZE 1M 2M
want_status=fail want_err="mpishmem: shmem_init: SHMEM_GPU_SYMMETRIC_SIZE must be the same on every PE"
mpmd SHMEM_GPU_SYMMETRIC_SIZE 1M 2M
want_status=ok want_out="alloc2M=ok"
mpmd SHMEM_CPU_SYMMETRIC_SIZE 4M 4096k

# Device visibility may differ: PE 1 sees no CPU, so a dynamic CPU space
# is PE 0's alone, while the default space stays every PE's.
want_status=ok want_out="PE 0: $state_default alloc2M=ok dynamic_cpu=member|PE 1: $state_default alloc2M=ok dynamic_cpu=nonmember"
mpmd MPISHMEM_VISIBLE_DEVICES cpu none
want_status=ok want_out="dynamic_cpu=member|dynamic_cpu=nonmember"
mpmd MPISHMEM_VISIBLE_DEVICES gpu all

# Misuse.
want_status=fail want_err="mpishmem: shmem_long_p: target PE 1 is not a member of the team of the CPU space"
mpmd MPISHMEM_VISIBLE_DEVICES all none nonmember_rma
want_status=fail want_err="mpishmem: shmem_space_destroy: 1 block(s) are still allocated from the CPU space"
run "SHMEM_DEBUG=1" unfreed_destroy
want_status=fail want_err="mpishmem: shmem_space_free: |was not allocated from the CPU space"
run "" wrong_free
want_status=fail want_err="mpishmem: shmem_broadcastmem: buffers|are in different memory spaces"
run "" mixed_buffers
want_status=fail want_err="mpishmem: shmem_broadcastmem: team PE 1 (world PE 1) is not a member of the CPU space"
mpmd MPISHMEM_VISIBLE_DEVICES cpu none team_outside

echo "$failures of $runs runs failed"
[ "$failures" -eq 0 ]
