#!/bin/sh
# Build OSHMPI (the other OpenSHMEM over MPI-3) from ../shared/peers, once,
# for the benchmarks that compare with it (bench/compare.sh, bench/scale.sh).
#
#   sh bench/build_oshmpi.sh PREFIX     -> PREFIX/bin/oshcc (MPICH underneath)
#
# The recipe is the peers README's: release settings, single-threaded, no
# openpa.  Prints PREFIX/bin/oshcc.  Does nothing when it is already built.
# OSHMPI is a peer to measure against: never linked into mpishmem.
#
# SPDX-License-Identifier: BSD-3-Clause
set -eu
prefix=$1
here=$(cd "$(dirname "$0")" && pwd)
tarball=${OSHMPI_TARBALL:-$(dirname "$(dirname "$here")")/shared/peers/oshmpi-ee5cf11.tar.gz}
if [ -x "$prefix/bin/oshcc" ]; then
    echo "$prefix/bin/oshcc"
    exit 0
fi
if [ ! -f "$tarball" ]; then
    echo "build_oshmpi.sh: no OSHMPI sources at $tarball (set OSHMPI_TARBALL)" >&2
    exit 1
fi
for tool in autoconf automake libtoolize; do
    command -v $tool >/dev/null 2>&1 || { apt-get install -y autoconf automake libtool >/dev/null; break; }
done
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
cd "$work"/oshmpi-*
sed -i 's|^extdirs="src/openpa"|extdirs=""|' autogen.sh
{
    ./autogen.sh &&
    ./configure CC=mpicc.mpich --enable-fast=most --enable-threads=single --prefix="$prefix" &&
    make -j2 && make install
} >"$prefix/build.log" 2>&1 || {
    echo "build_oshmpi.sh: OSHMPI build failed; see $prefix/build.log" >&2
    tail -20 "$prefix/build.log" >&2
    exit 1
}
echo "$prefix/bin/oshcc"
