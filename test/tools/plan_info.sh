#!/bin/sh
# The plan of routes (mpi_backend/route_plan.h) is printed whole by
# SHMEM_INFO=1 at shmem_init and by mpishmem-info, and a setting that
# forces a route shows in it: MPISHMEM_BARRIER, MPISHMEM_SHM,
# MPISHMEM_YIELD, MPISHMEM_CTX_LANES.  rma_needs_target comes from the MPI
# that runs (MPICH: 1, Open MPI: 0).
#   plan_info.sh PATH/TO/env_probe PATH/TO/mpishmem-info
# Environment from meson: LAUNCH, MPI_FLAVOR.
prog=${1:?usage: plan_info.sh env_probe mpishmem-info}
info=${2:?usage: plan_info.sh env_probe mpishmem-info}
. "${MESON_SOURCE_ROOT:?}/test/harness/outcome.sh"
outcome_begin
export MPISHMEM_TEST_TIMEOUT=60 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset MPISHMEM_BARRIER MPISHMEM_SHM MPISHMEM_YIELD MPISHMEM_CTX_LANES SHMEM_INFO SMA_INFO
fields="mpi_family rma_needs_target shm waiting wait_by_request ctx_lanes progress_thread amo_am barrier"
case $MPI_FLAVOR in mpich) target=1 ;; *) target=0 ;; esac
# run LABEL PROGRAM "VAR=value ..." LINE...: every LINE is in stdout.
run()
{
    label=$1 program=$2 settings=$3
    shift 3
    runs=$((runs + 1))
    # shellcheck disable=SC2086 # word splitting of the settings is intended
    env $settings "$LAUNCH" 2 "$program" >"$tmp/out" 2>"$tmp/err"
    status=$?
    problem=
    [ "$status" -eq 0 ] || problem="exit status $status"
    for f in $fields; do
        grep -q "^mpishmem: plan: $f = " "$tmp/out" || problem="${problem:+$problem; }no plan field $f"
    done
    grep -q "^mpishmem: plan: segment 'symmetric heap': rma = .*, amo = .*, gpu = .*, lanes = " \
        "$tmp/out" || problem="${problem:+$problem; }no route line for the heap"
    for line in "$@"; do
        grep -q -x -F "mpishmem: plan: $line" "$tmp/out" || problem="${problem:+$problem; }no '$line'"
    done
    outcome "$label: $settings"
}
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1" "rma_needs_target = $target" "shm = 1"
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_BARRIER=shm-central" "barrier = shm-central"
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_BARRIER=MPI" "barrier = mpi"
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_SHM=0 MPISHMEM_BARRIER=shm" "shm = 0" "barrier = mpi"
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_YIELD=1 MPISHMEM_CTX_LANES=2" "waiting = yield" \
    "ctx_lanes = 2" "wait_by_request = $target"
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_YIELD=0" "waiting = spin" "wait_by_request = 0"
run "mpishmem-info" "$info" "MPISHMEM_SHM=0" "shm = 0" "barrier = mpi"
# Window memory MPI allocates for what only MPI reaches (MPISHMEM_SHM=0):
# planned on Open MPI (osc/sm listed, as shmem_init sets), shown for the
# global data; MPISHMEM_WIN_ALLOCATE=0 turns it off.
case $MPI_FLAVOR in openmpi) wa=1 ;; *) wa=0 ;; esac
if [ "$wa" = 1 ]; then
    run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_SHM=0" "win_allocate = 1" \
        "segment 'global data': rma = MPI RMA, amo = MPI atomics, gpu = host memory, lanes = 1, memory = MPI's (MPI_Win_allocate)"
else
    run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_SHM=0" "win_allocate = 0"
fi
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_SHM=0 MPISHMEM_WIN_ALLOCATE=0" "win_allocate = 0"
outcome_end
