#!/bin/sh
# The release tarball: `meson dist` packs the committed tree (HEAD), and the
# tarball, unpacked in a clean directory, configures, builds and installs
# the library and tools, and an example built with the installed oshcc runs
# under oshrun and prints its expected output.  Uncommitted changes are not
# in the tarball (meson dist --allow-dirty says so).  The build from the
# tarball is buildtype=plain: the same files, several times faster to build.
#   sh test/dist_check.sh [mpich|openmpi]     (default mpich; about 1-3 min)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
mpi=${1:-mpich}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SHMEM_SYMMETRIC_SIZE=4M
start=$(date +%s)
# step LABEL COMMAND...: run it, output to $tmp/log; on failure show it and stop.
step()
{
    label=$1
    shift
    if "$@" >"$tmp/log" 2>&1; then
        echo "ok:   $label ($(($(date +%s) - start)) s)"
    else
        echo "FAIL: $label: $*"
        tail -n 40 "$tmp/log"
        exit 1
    fi
}
# meson dist needs a configured build directory; the tests and benchmarks
# need not be configured for it.
step "configure a build directory for meson dist" env CC="mpicc.$mpi" \
    meson setup "$tmp/distbuild" "$top" -Dtests=false -Dbenchmarks=false
step "meson dist (HEAD, xztar, its own test run skipped)" \
    meson dist -C "$tmp/distbuild" --allow-dirty --no-tests --formats xztar
tarball=$(ls "$tmp"/distbuild/meson-dist/mpishmem-*.tar.xz)
step "the tarball is named after meson.build's version" sh -c \
    "test \"\$(basename '$tarball')\" = \"mpishmem-\$(meson introspect --projectinfo '$tmp/distbuild' |
        python3 -c 'import json,sys; print(json.load(sys.stdin)[\"version\"])').tar.xz\""
mkdir "$tmp/clean"
step "unpack in a clean directory" tar -xf "$tarball" -C "$tmp/clean"
srcdir=$(ls -d "$tmp"/clean/mpishmem-*)
step "the tarball holds no build directory or git metadata" sh -c \
    "! ls -d '$srcdir'/build* '$srcdir'/.git 2>/dev/null"
step "configure from the tarball" env CC="mpicc.$mpi" meson setup "$tmp/build" "$srcdir" \
    --prefix="$tmp/prefix" -Dtests=false -Dbenchmarks=false -Dbuildtype=plain
step "build" ninja -C "$tmp/build"
step "install" meson install -C "$tmp/build"
flags=
[ "$mpi" = openmpi ] && flags=--oversubscribe
step "the installed oshcc builds examples/02_ring.c from the tarball" \
    "$tmp/prefix/bin/oshcc" "$srcdir/examples/02_ring.c" -o "$tmp/ring"
# shellcheck disable=SC2086
step "oshrun runs it on 4 PEs with the expected output" sh -c \
    "timeout 120 '$tmp/prefix/bin/oshrun' $flags -n 4 '$tmp/ring' | diff - '$srcdir/examples/expected/02_ring-np4.txt'"
echo "dist tarball check passed in $(($(date +%s) - start)) s"
