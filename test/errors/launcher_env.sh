#!/bin/sh
# The launcher's count of processes on this node, read before MPI starts,
# seen through its one visible effect: with MPISHMEM_PROGRESS_THREAD unset,
# shmem_init asks MPI for MPI_THREAD_MULTIPLE only when that count leaves two
# CPUs per process.  The program runs alone (no mpiexec), so every launcher
# variable is the test's.  Skipped (77) with fewer than 2 CPUs.
# Arguments: the launcher_level program.
prog=${1:?usage: launcher_env.sh LAUNCHER_LEVEL}
cpus=$(nproc) || exit 1
[ "$cpus" -ge 2 ] || { echo "SKIP: $cpus CPU"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SHMEM_SYMMETRIC_SIZE=4M
unset MPISHMEM_PROGRESS_THREAD MPI_LOCALNRANKS OMPI_COMM_WORLD_LOCAL_SIZE PMI_LOCAL_SIZE \
    SLURM_STEP_ID SLURM_STEP_TASKS_PER_NODE SLURM_TASKS_PER_NODE SLURM_NODEID
failures=0

# expect WANT LABEL VAR=VALUE...
expect()
{
    want=$1 label=$2
    shift 2
    got=$(env "$@" timeout 30 "$prog" 2>&1)
    if printf '%s\n' "$got" | grep -q "^launcher_level: $want\$"; then
        echo "ok: $label: $want"
    else
        echo "FAIL: $label: expected $want"; printf '%s\n' "$got" | sed 's/^/  | /'
        failures=$((failures + 1))
    fi
}

step="SLURM_STEP_ID=0 SLURM_NODEID=1"
expect below "no launcher" X=1
# srun -N 2: this is node 1, one task here; node 0 has a task per CPU.
expect multiple "srun step, 1 task on this node" $step SLURM_STEP_TASKS_PER_NODE="$cpus,1"
expect multiple "srun step, (xN) form" $step SLURM_STEP_TASKS_PER_NODE="$cpus(x1),1(x3)"
expect below "srun step, a task per CPU on this node" $step SLURM_STEP_TASKS_PER_NODE="1,$cpus"
expect multiple "srun without the step list" $step SLURM_TASKS_PER_NODE="$cpus,1"
# An sbatch script: the allocation's list, no step; mpiexec may run anything.
expect below "sbatch allocation only" SLURM_NODEID=0 SLURM_TASKS_PER_NODE=1
# An MPI launcher's own count comes first.
expect below "Hydra's count over srun's" $step SLURM_STEP_TASKS_PER_NODE="$cpus,1" \
    MPI_LOCALNRANKS="$cpus"
expect below "Open MPI's count over srun's" $step SLURM_STEP_TASKS_PER_NODE="$cpus,1" \
    OMPI_COMM_WORLD_LOCAL_SIZE="$cpus"
expect multiple "Hydra's count alone" MPI_LOCALNRANKS=1
expect below "malformed step list" $step SLURM_STEP_TASKS_PER_NODE="$cpus,1,"
[ "$failures" -eq 0 ] && echo "launcher_env: all passed" && exit 0
echo "launcher_env: $failures failed"
exit 1
