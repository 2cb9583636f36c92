#!/bin/sh
# Builds mpishmem (MPICH by default) and runs the ring demo (examples/02_ring.c) on 4 PEs.
#   sh examples/run-demo.sh          MPI=openmpi sh examples/run-demo.sh
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh test/deps.sh
mpi=${MPI:-mpich}
dir="build-demo-$mpi"
[ -d "$dir" ] || CC="mpicc.$mpi" meson setup "$dir" -Dtests=false -Dbenchmarks=false >/dev/null
ninja -C "$dir" examples/02_ring >/dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
flags=""
[ "$mpi" = openmpi ] && flags="--oversubscribe"
exec timeout 120 "mpiexec.$mpi" $flags -n "${NP:-4}" "$dir/examples/02_ring"
