#!/bin/sh
# Runs the between-node test set on real (namespace) nodes:
#   sh test/cluster/run_set.sh BUILD_DIR [MESON TEST ARGS...]
# e.g.  sh test/cluster/run_set.sh build-mpich                 (every net test)
#       sh test/cluster/run_set.sh build-mpich --suite net2x1
#       CLUSTER_ROOT=/var/cache/mpishmem/trixie-root \
#           sh test/cluster/run_set.sh build-deb13-openmpi --suite cluster-core
# Builds what the chosen tests need (test/deb13/select.py), brings up 4
# nodes (the 2-node shapes use the first two), runs the tests one at a
# time and tears the cluster down, on failure too.  With CLUSTER_ROOT the
# nodes, the build and meson run in that root (the Debian 13 one, as
# test/deb13/enter.sh runs them); BUILD_DIR is relative to the source tree
# and must be configured (test/deb13/core.sh configures build-deb13-MPI).
# CLUSTER_SKIP="NAME ..." leaves the named tests out.
# Exit 77 when no cluster can be made here (not root, no ip netns).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cd "$top" || exit 1
dir=${1:?usage: run_set.sh BUILD_DIR [MESON TEST ARGS...]}
shift
[ $# -gt 0 ] || set -- --suite cluster
inside() {
    if [ -n "${CLUSTER_ROOT:-}" ]; then
        MPISHMEM_DEB13_ROOT=$CLUSTER_ROOT sh "$top/test/deb13/enter.sh" "$@"
    else
        "$@"
    fi
}
[ -f "$dir/build.ninja" ] || inside test -f "$dir/build.ninja" ||
    { echo "run_set.sh: $dir is not a configured build"; exit 1; }
# The build files first (meson files may have changed), so the list is
# this tree's.
inside ninja -C "$dir" build.ninja >"$dir.cluster-build.log" 2>&1 ||
    { tail -30 "$dir.cluster-build.log"; echo "run_set.sh: reconfigure failed"; exit 1; }
names=$(inside meson test -C "$dir" --no-rebuild --list "$@" 2>/dev/null | sed -n 's|^.* / ||p')
# -P: the host's Python would import select.py as the select module.
# CLUSTER_SKIP="NAME ...": tests left out, each for a reason docs/checks.md
# gives (Real nodes).
for n in ${CLUSTER_SKIP:-}; do
    names=$(echo "$names" | grep -vxF "$n")
    echo "run_set.sh: $n left out (CLUSTER_SKIP)"
done
[ -n "$names" ] || { echo "run_set.sh: no tests match: $*"; exit 1; }
sel=$(inside python3 -P test/deb13/select.py "$dir" "$names" "") ||
    { echo "run_set.sh: could not list what the tests need"; exit 1; }
inside nice ninja -C "$dir" $(echo "$sel" | sed -n 1p) >>"$dir.cluster-build.log" 2>&1 ||
    { tail -30 "$dir.cluster-build.log"; echo "run_set.sh: build failed"; exit 1; }
# The build directory stays visible on the nodes if it lies under /tmp
# (each node has a /tmp of its own: cluster.sh).
CLUSTER_KEEP=$(cd "$dir" && pwd)
export CLUSTER_KEEP
# shellcheck disable=SC2086
exec sh "$here/cluster.sh" run 4 sh -c '
    top=$1 dir=$2; shift 2
    if [ -n "${CLUSTER_ROOT:-}" ]; then
        MPISHMEM_DEB13_ROOT=$CLUSTER_ROOT exec sh "$top/test/deb13/enter.sh" \
            env MPISHMEM_CLUSTER="$MPISHMEM_CLUSTER" \
            meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes 1 "$@"
    fi
    exec meson test -C "$dir" --no-rebuild --print-errorlogs --num-processes 1 "$@"' \
    run_set "$top" "$dir" $names
