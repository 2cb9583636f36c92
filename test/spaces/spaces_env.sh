#!/bin/sh
# The memory-space environment: which spaces shmem_init enables, the
# default space, size precedence, failures with a message naming the
# variable, values that differ between PEs (MPMD launches), per-PE device
# visibility, and misuse messages.
#   spaces_env.sh PATH/TO/space_probe
# Environment from meson: LAUNCH, MPIEXEC, MPIEXEC_FLAGS, MPI_FLAVOR.
. "${MESON_SOURCE_ROOT:?}/test/harness/env_check.sh"
env_check_init "${1:?usage: spaces_env.sh PROGRAM}"
unset SHMEM_SYMMETRIC_SIZE SMA_SYMMETRIC_SIZE SHMEM_DEBUG SMA_DEBUG SHMEM_INFO \
      SHMEM_ENABLE_CPU_SPACE SHMEM_ENABLE_GPU_SPACE SHMEM_DEFAULT_SPACE \
      SHMEM_CPU_SYMMETRIC_SIZE SHMEM_GPU_SYMMETRIC_SIZE MPISHMEM_VISIBLE_DEVICES

# run "VAR=value ..." [MODE] and mpmd VAR A B [MODE]: the probe's MODE
# defaults to "state".
run() { env_run "$1" "${2:-state}"; }
mpmd() { env_mpmd "$1" "$2" "$3" "${4:-state}"; }

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
want_status=fail want_err="mpishmem: shmem_init: SHMEM_DEFAULT_SPACE='FPGA' is not one of CPU, GPU"
run "SHMEM_DEFAULT_SPACE=FPGA"
want_status=fail want_err="mpishmem: shmem_init: SHMEM_CPU_SYMMETRIC_SIZE='lots' is not a valid size"
run "SHMEM_CPU_SYMMETRIC_SIZE=lots"
want_status=fail want_err="mpishmem: shmem_init: SHMEM_GPU_SYMMETRIC_SIZE='1x' is not a valid size"
run "SHMEM_GPU_SYMMETRIC_SIZE=1x"
want_status=fail want_err="mpishmem: shmem_init: MPISHMEM_VISIBLE_DEVICES='cpu,tpu' is not a comma-separated list of cpu, gpu, gpuN, all, none: 'tpu' is not a device"
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
run "SHMEM_DEBUG=1" wrong_free
want_status=ok want_out="done" want_err="mpishmem: shmem_space_free: warning: |was not allocated from the CPU space|nothing is freed on any PE"
run "" wrong_free
want_status=fail want_err="mpishmem: shmem_broadcastmem: buffers|are in different memory spaces"
run "" mixed_buffers
want_status=fail want_err="mpishmem: shmem_broadcastmem: team PE 1 (world PE 1) is not a member of the CPU space"
export SHMEM_DEBUG=1 # the collectives' space checks are debug checks
mpmd MPISHMEM_VISIBLE_DEVICES cpu none team_outside
unset SHMEM_DEBUG

env_check_done
