#!/bin/sh
# A one-machine Slurm cluster (munged, slurmctld and slurmd on this host,
# 4 CPUs' worth of slots whatever the machine has), then two batch jobs of
# 4 tasks: one runs PROGRAM with mpiexec inside the allocation, one with
# srun through the PMI this MPI's Debian build speaks (MPICH: PMI-2, Open
# MPI: PMIx).  Every PE must see its left neighbour's put after a barrier,
# and the library must have read 4 processes on the node from the launcher.
# Every daemon stops at the end, on failure too.
# usage: slurm_cluster.sh PROGRAM   (env: MPIEXEC, MPIEXEC_FLAGS, MPI_FLAVOR)
# Exit 77 (skipped) when not root or Slurm is not installed (test/deps.sh).
set -u
prog=$1
[ "$(id -u)" -eq 0 ] || { echo "SKIP: the test cluster runs its daemons as root"; exit 77; }
for t in munged slurmctld slurmd sbatch sinfo srun scancel; do
    command -v "$t" >/dev/null || { echo "SKIP: $t missing (test/deps.sh installs it)"; exit 77; }
done

d=$(mktemp -d /tmp/mpishmem-slurm.XXXXXX) || exit 1
pids=""
jobs_started=""
failed=0
held_open_in() {
    for f in /proc/[0-9]*/fd/*; do
        case $(readlink "$f" 2>/dev/null) in
            "$1"/*) p=${f#/proc/}; [ "${p%%/*}" != $$ ] && echo "${p%%/*}" ;;
        esac
    done | sort -u
}
stop_all() {
    # Jobs first, while slurmd can still end their processes.
    if [ -n "$jobs_started" ]; then
        timeout 5 scancel $jobs_started 2>/dev/null
        timeout 10 sh -c "while [ -n \"\$(squeue -h -j $(echo $jobs_started | tr ' ' ,) 2>/dev/null)\" ]; do sleep 0.3; done"
    fi
    # A job step that outlived slurmctld retries its last message for
    # minutes: ours are the processes with files open in $d.
    [ -n "$jobs_started" ] && pids="$pids $(held_open_in "$d")"
    for p in $pids; do kill "$p" 2>/dev/null; done
    for p in $pids; do
        i=0
        while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        kill -9 "$p" 2>/dev/null
    done
    if [ $failed -ne 0 ]; then
        for f in slurmctld.log slurmd.log munged.log; do
            echo "--- $f (last lines)"; tail -n 15 "$d/$f" 2>/dev/null
        done
    fi
    rm -rf "$d"
}
trap stop_all EXIT
trap 'failed=1; exit 1' INT TERM
fail() { echo "FAIL: $*"; failed=1; exit 1; }

# Ports of our own, so a host's real Slurm (or a parallel run) is left
# alone; below the kernel's ephemeral range (32768 up).
base=$((20000 + $$ % 6000 * 2))
host=$(uname -n | cut -d. -f1) # the short name slurmd registers as
export SLURM_CONF="$d/slurm.conf"
mkdir -p "$d/state" "$d/spool"
chmod 700 "$d"
head -c 1024 /dev/urandom > "$d/munge.key"
chmod 400 "$d/munge.key"
cat > "$SLURM_CONF" <<EOF
ClusterName=mpishmem
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge.sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/linear
SchedulerType=sched/builtin
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
InactiveLimit=0
KillWait=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=4 RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=5 State=UP OverSubscribe=YES
EOF

munged -F -f --key-file="$d/munge.key" --socket="$d/munge.sock" --pid-file="$d/munged.pid" \
    --log-file="$d/munged.log" --seed-file="$d/munged.seed" > "$d/munged.out" 2>&1 &
pids="$pids $!"
i=0
while [ ! -S "$d/munge.sock" ]; do
    i=$((i + 1)); [ $i -gt 50 ] && fail "munged did not start"; sleep 0.1
done
slurmctld -D -c -i > "$d/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D > "$d/slurmd.out" 2>&1 &
pids="$pids $!"
i=0
until [ "$(timeout 5 sinfo -h -N -o %t -n "$host" 2>/dev/null)" = idle ]; do
    i=$((i + 1)); [ $i -gt 40 ] && fail "the node did not become idle in 20 s"; sleep 0.5
done

# One batch job; its output must show all 4 PEs with their left
# neighbour's number and 4 processes on the node.
run_job() {
    name=$1; shift
    cat > "$d/$name.sh" <<EOF
#!/bin/sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec timeout 25 $*
EOF
    out="$d/$name.out"
    jid=$(timeout 10 sbatch --parsable -N1 -n4 -t 1 -D "$d" -o "$out" "$d/$name.sh") ||
        fail "$name: sbatch refused the job"
    jobs_started="$jobs_started $jid"
    timeout 30 sh -c "until [ -z \"\$(squeue -h -j $jid 2>/dev/null)\" ]; do sleep 0.3; done" ||
        fail "$name: job $jid did not end in 30 s"
    echo "--- $name: $*"
    cat "$out"
    for pe in 0 1 2 3; do
        grep -q "^pe $pe of 4: from left $(((pe + 3) % 4)), launcher local size 4\$" "$out" ||
            fail "$name: PE $pe's line missing or wrong"
    done
}

run_job mpiexec "$MPIEXEC" $MPIEXEC_FLAGS -n 4 "$prog"
case "${MPI_FLAVOR:-}" in
    mpich) run_job srun srun --mpi=pmi2 -n 4 "$prog" ;;
    openmpi) run_job srun srun --mpi=pmix -n 4 "$prog" ;;
    *) echo "srun: no PMI known for MPI_FLAVOR=${MPI_FLAVOR:-}, not tried" ;;
esac
echo "PASS"
