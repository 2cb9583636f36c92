#!/bin/sh
# GPU-space put/get on a machine with a real GPU (bench/gpu_bench.c): 2 PEs
# on one node, MPISHMEM_SHM=1 (IPC device-to-device copies) and
# MPISHMEM_SHM=0 (GPU-aware MPI if MPI is, else the owner PE's agent), each
# next to cudaMemcpy floors measured in the same run.  Prints one CSV,
# `bench,row,size,ns_median,MB_per_s`, whose bench column names the run
# (gpu_shm1, gpu_shm0, gpu_shm0_aware0, ...), and before each run a `#` line
# with the route PE 0's library reports (SHMEM_INFO).
#
# Usage: bench/gpu_bench.sh BUILD_DIR [mpich|openmpi]
#   GPU_BENCH_AWARE="unset 0"  also run with MPISHMEM_GPU_AWARE=0 (the agent
#                              even where MPI is GPU-aware); default "unset"
#   BENCH_ITERS, BENCH_REPS    as for every benchmark
#   MPISHMEM_CUDART            the CUDA runtime; default: the toolkit's
#                              libcudart.so, found below, so that the library
#                              and the benchmark's floors load the same one
# A performance measurement, not a test: it never fails on a figure.
set -u
build=${1:?usage: gpu_bench.sh BUILD_DIR [mpich|openmpi]}
flavor=${2:-mpich}
prog=$build/bench/gpu_bench
[ -x "$prog" ] || { echo "gpu_bench.sh: $prog not built (meson -Dbenchmarks=true)" >&2; exit 1; }
if [ "$flavor" = openmpi ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    launch() { timeout 600 mpiexec.openmpi -n 2 "$@"; }
else
    launch() { timeout 600 mpiexec.mpich -n 2 "$@"; }
fi

. "$(dirname "$0")/../test/gpu/find_cudart.sh"
echo "# gpu_bench.sh: $(date -u +%Y-%m-%dT%H:%M:%SZ) $(hostname) MPISHMEM_CUDART=${MPISHMEM_CUDART:-unset}"
command -v nvidia-smi >/dev/null 2>&1 &&
    nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv,noheader | sed 's/^/# GPU /'

export SHMEM_ENABLE_GPU_SPACE=1 SHMEM_ENABLE_CPU_SPACE=1 SHMEM_GPU_SYMMETRIC_SIZE=64M
header=
status=0
for aware in ${GPU_BENCH_AWARE:-unset}; do
    for shm in 1 0; do
        label=gpu_shm$shm
        if [ "$aware" = unset ]; then
            unset MPISHMEM_GPU_AWARE
        else
            export MPISHMEM_GPU_AWARE=$aware
            label=${label}_aware$aware
        fi
        out=$(MPISHMEM_SHM=$shm BENCH_LABEL=$label SHMEM_INFO=1 launch "$prog" 2>&1)
        rc=$?
        # SHMEM_INFO's lines: keep the GPU route as a comment, drop the rest.
        printf '%s\n' "$out" | sed -n "s/^mpishmem: PE 0 GPU: /# $label: PE 0 GPU: /p"
        printf '%s\n' "$out" | sed -n "s/^# gpu_bench: /# $label: /p"
        if [ -z "$header" ] && printf '%s\n' "$out" | grep -m1 '^bench,row,'; then
            header=1
        fi
        printf '%s\n' "$out" | grep "^$label,"
        printf '%s\n' "$out" | grep '^gpu_bench: no GPU space'
        if [ $rc -ne 0 ]; then
            echo "# $label: exit status $rc; its last lines:"
            printf '%s\n' "$out" | grep -v '^  \|^mpishmem: \|^gpu_shm\|^bench,' | tail -5 |
                sed 's/^/#   /'
            status=1
        fi
    done
done
exit $status
