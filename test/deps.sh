#!/bin/sh
# Installs what building and testing mpishmem needs, if it is missing.
# Debian/Ubuntu (apt-get); runs apt as root, or through sudo.
set -e
need=""
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
# cmake: the CMake package's test; lmod: the modulefile's (test/tools/modulefile_steps.sh).
# slurmctld slurmd slurm-client munge: test/slurm (a one-machine cluster).
# iproute2: test/cluster (network namespaces, a bridge, veth pairs).
for p in mpich libmpich-dev openmpi-bin libopenmpi-dev meson ninja-build pkg-config \
         check libhwloc-dev gcc g++ gfortran cmake lmod \
         slurmctld slurmd slurm-client munge iproute2; do
    have_pkg "$p" || need="$need $p"
done
[ -z "$need" ] && exit 0
echo "deps.sh: installing:$need"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
