#!/bin/sh
# The GPU-memory test programs (test/gpu) on a machine with a real GPU and
# a real CUDA runtime instead of the stand-in (docs/spaces.md, "Run on a
# real GPU").  Not part of `meson test`: CI has no GPU.
#
# Usage: test/gpu/real_gpu.sh BUILD_DIR [mpich|openmpi]
#   BUILD_DIR        a meson build of this repository (-Dcuda=enabled or auto)
#   MPISHMEM_CUDART  the CUDA runtime; default: the toolkit's libcudart.so
#   MPIEXEC          the launcher; default mpiexec.mpich / mpiexec.openmpi
#   REAL_GPU_TIMEOUT seconds per run (default 120)
#
# Runs each program the way the suite does with MPI not GPU-aware (the
# stand-in's emulation of a GPU-aware MPI and the guarded host-memory tests
# need the stand-in): 1, 2 and 4 PEs, MPISHMEM_SHM on and off, and (MPICH)
# 4 PEs on two pretend nodes.  Prints one line per run, PASS/FAIL/SKIP, then
# a count; exits non-zero if any run failed.
set -u
build=${1:?usage: real_gpu.sh BUILD_DIR [mpich|openmpi]}
flavor=${2:-mpich}
limit=${REAL_GPU_TIMEOUT:-120}
if [ "$flavor" = openmpi ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    mpiexec=${MPIEXEC:-mpiexec.openmpi}
    flags=--oversubscribe
else
    mpiexec=${MPIEXEC:-mpiexec.mpich}
    flags=
fi
. "$(dirname "$0")/find_cudart.sh"
[ -n "${MPISHMEM_CUDART:-}" ] || { echo "real_gpu.sh: no libcudart.so found (set MPISHMEM_CUDART)" >&2; exit 1; }
echo "# real_gpu.sh: $(date -u +%Y-%m-%dT%H:%M:%SZ) $flavor MPISHMEM_CUDART=$MPISHMEM_CUDART"
command -v nvidia-smi >/dev/null 2>&1 &&
    nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/# GPU /'
unset STANDIN_MPI_GPU_AWARE MPISHMEM_TEST_NODES

pass=0 fail=0 skip=0
# run NAME NP NODES ENV... : one launch; NODES=2 places NP/2 PEs on each of
# two pretend nodes (MPICH's fork launcher).
run() {
    name=$1 np=$2 nodes=$3
    shift 3
    prog=$build/test/$name
    if [ ! -x "$prog" ]; then
        echo "SKIP $name: not built"
        skip=$((skip + 1))
        return
    fi
    if [ "$nodes" -gt 1 ]; then
        [ "$flavor" = mpich ] || return
        where="-launcher fork -hosts node1,node2 -ppn $((np / nodes))"
        label="$name np$np nodes$nodes"
    else
        where=
        label="$name np$np"
    fi
    start=$(date +%s%N)
    # shellcheck disable=SC2086
    out=$(env "$@" SHMEM_SYMMETRIC_SIZE=16M SHMEM_GPU_SYMMETRIC_SIZE=16M \
          timeout "$limit" "$mpiexec" $flags $where -n "$np" "$prog" 2>&1)
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    case "$out" in
        *"needs two devices"*)
            echo "SKIP $label $*: needs two GPUs"
            skip=$((skip + 1))
            return ;;
    esac
    if [ $rc -eq 0 ]; then
        echo "PASS $label $* (${ms} ms)"
        pass=$((pass + 1))
    else
        echo "FAIL $label $* (exit $rc, ${ms} ms); its last lines:"
        printf '%s\n' "$out" | tail -15 | sed 's/^/    /'
        fail=$((fail + 1))
    fi
}

both='SHMEM_ENABLE_CPU_SPACE=1 SHMEM_ENABLE_GPU_SPACE=1'
default='SHMEM_DEFAULT_SPACE=GPU'
# program, PE counts, spaces: as test/gpu/meson.build runs them.
for spec in "gpu_space:1 2 4:$both" "gpu_bounce:2 4:$both" "gpu_cross:1 2 4:$both" \
            "gpu_default:1 2 4:$default" "gpu_realloc:2 4:$default" \
            "gpu_device:1 2:$default" "gpu_rma_mpi:2 4:$both"; do
    name=${spec%%:*}
    rest=${spec#*:}
    nps=${rest%%:*}
    spaces=${rest#*:}
    for np in $nps; do
        for shm in 1 0; do
            # shellcheck disable=SC2086
            run "$name" "$np" 1 MPISHMEM_SHM=$shm $spaces
        done
    done
    # shellcheck disable=SC2086
    [ "$name" = gpu_device ] || run "$name" 4 2 MPISHMEM_SHM=1 $spaces
done
echo "# real_gpu.sh: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
