#!/bin/sh
# Slurm across two namespace nodes (test/cluster/cluster.sh): munged and
# slurmctld on this machine, reached by the nodes on the bridge side
# (10.77.x.254), one slurmd in each node
# (NodeName node1/node2 at the node's own address).  Then two jobs of
# 2 nodes x 1 task run PROGRAM (test/cluster/cluster_view, argument 2):
# sbatch -N2 with mpiexec inside the allocation, and srun -N2 through the
# PMI this MPI's Debian build speaks (MPICH: PMI-2, Open MPI: PMIx).  Each
# must print both nodes' lines: 2 nodes, /dev/shm of their own.
# usage: slurm_nodes.sh PROGRAM   (env: MPIEXEC, MPIEXEC_FLAGS, MPI_FLAVOR)
# Brings up its own 2-node cluster unless MPISHMEM_CLUSTER names one.
# Exit 77 when not root, or Slurm or namespaces are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
prog=${1:?usage: slurm_nodes.sh PROGRAM}
[ "$(id -u)" -eq 0 ] || { echo "SKIP: the test cluster runs its daemons as root"; exit 77; }
for t in munged slurmctld slurmd sbatch sinfo srun scancel squeue; do
    command -v "$t" >/dev/null || { echo "SKIP: $t missing (test/deps.sh installs it)"; exit 77; }
done
[ -n "${MPISHMEM_CLUSTER:-}" ] || exec sh "$here/cluster.sh" run 2 sh "$0" "$@"
st=$MPISHMEM_CLUSTER
. "$st/cluster"

# In the cluster's state dir: seen at one path on every node (each node's
# /tmp is its own).
d=$(mktemp -d "$st/slurm.XXXXXX") || exit 1
pids=""
failed=0
stop_all() {
    timeout 5 scancel -u root 2>/dev/null
    for p in $pids; do kill "$p" 2>/dev/null; done
    sleep 0.5
    for p in $pids; do kill -9 "$p" 2>/dev/null; done
    if [ $failed -ne 0 ]; then
        for f in slurmctld.log node1.slurmd.log node2.slurmd.log; do
            echo "--- $f (last lines)"; tail -n 15 "$d/$f" 2>/dev/null
        done
    fi
    rm -rf "$d"
}
trap stop_all EXIT
trap 'failed=1; exit 1' INT TERM
fail() { echo "FAIL: $*"; failed=1; exit 1; }

base=$((20000 + $$ % 6000 * 2))
export SLURM_CONF="$d/slurm.conf"
mkdir -p "$d/state" "$d/spoolnode1" "$d/spoolnode2"
chmod 755 "$d"
head -c 1024 /dev/urandom > "$d/munge.key"
chmod 400 "$d/munge.key"
cat > "$SLURM_CONF" <<EOC
ClusterName=mpishmem
SlurmctldHost=$(uname -n | cut -d. -f1)($net.254)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge.sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool%n
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.%n.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/%n.slurmd.log
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
NodeName=node1 NodeAddr=$net.1 CPUs=2 RealMemory=1000 State=UNKNOWN
NodeName=node2 NodeAddr=$net.2 CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=node1,node2 Default=YES MaxTime=5 State=UP OverSubscribe=YES
EOC

munged -F -f --key-file="$d/munge.key" --socket="$d/munge.sock" --pid-file="$d/munged.pid" \
    --log-file="$d/munged.log" --seed-file="$d/munged.seed" > "$d/munged.out" 2>&1 &
pids="$pids $!"
i=0
while [ ! -S "$d/munge.sock" ]; do
    i=$((i + 1)); [ $i -gt 50 ] && fail "munged did not start"; sleep 0.1
done
slurmctld -D -c -i > "$d/slurmctld.out" 2>&1 &
pids="$pids $!"
# Each slurmd in its node (the munge socket is a file: seen from there).
for n in 1 2; do
    "$st/standin" "node$n" "SLURM_CONF=$SLURM_CONF exec slurmd -D -N node$n" \
        > "$d/node$n.slurmd.out" 2>&1 &
done
i=0
until [ "$(timeout 5 sinfo -h -N -o %t 2>/dev/null | sort -u)" = idle ]; do
    i=$((i + 1)); [ $i -gt 40 ] && fail "the nodes did not become idle in 20 s: $(sinfo -N 2>&1)"
    sleep 0.5
done

run_job() {
    name=$1; shift
    cat > "$d/$name.sh" <<EOJ
#!/bin/sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec timeout 40 $*
EOJ
    out="$d/$name.out"
    jid=$(timeout 10 sbatch --parsable -N2 --ntasks-per-node=1 -t 1 -D "$d" -o "$out" "$d/$name.sh") ||
        fail "$name: sbatch refused the job"
    timeout 50 sh -c "until [ -z \"\$(squeue -h -j $jid 2>/dev/null)\" ]; do sleep 0.3; done" ||
        fail "$name: job $jid did not end in 50 s"
    echo "--- $name: $*"
    cat "$out"
    for n in 1 2; do
        grep -q "^cluster_view: host node$n: 1 of 2 PEs, /dev/shm its own, 2 nodes\$" "$out" ||
            fail "$name: node$n's line missing or wrong"
    done
}

# Open MPI passes the library's settings only when named (-x).
run_job mpiexec "$MPIEXEC" ${MPIEXEC_FLAGS:-} -n 2 "$prog" 2
case "${MPI_FLAVOR:-}" in
    mpich) run_job srun srun --mpi=pmi2 -n 2 "$prog" 2 ;;
    openmpi) run_job srun srun --mpi=pmix -n 2 "$prog" 2 ;;
    *) echo "srun: no PMI known for MPI_FLAVOR=${MPI_FLAVOR:-}, not tried" ;;
esac
echo "PASS"
