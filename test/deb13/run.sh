#!/bin/sh
# Builds mpishmem in a Debian 13 root against its MPICH 4.2 and Open MPI 5
# and runs the core set on each (test/deb13/core.sh, docs/checks.md).
#   sh test/deb13/run.sh [mpich] [openmpi]
# Makes the root when it is missing (test/deb13/make-root.sh, about 8 min),
# else reuses it.  Exits non-zero when any step fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/make-root.sh" || exit 1
status=0
for mpi in ${*:-mpich openmpi}; do
    sh "$here/enter.sh" sh test/deb13/core.sh "$mpi" || status=1
done
exit $status
