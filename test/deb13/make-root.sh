#!/bin/sh
# Makes (or reuses) a Debian 13 "trixie" root with MPICH 4.2 and Open MPI 5,
# to build and test mpishmem on newer MPIs than the host's (docs/checks.md).
#   sh test/deb13/make-root.sh [DIR]
# DIR defaults to $MPISHMEM_DEB13_ROOT or /var/cache/mpishmem/trixie-root,
# outside the clone so later runs on the same machine reuse it. The marker
# file .mpishmem-complete is written last: a root without it is incomplete
# (an interrupted run) and is made again from nothing.
set -eu
dir=${1:-${MPISHMEM_DEB13_ROOT:-/var/cache/mpishmem/trixie-root}}
marker="$dir/.mpishmem-complete"
pkgs="mpich libmpich-dev openmpi-bin libopenmpi-dev meson ninja-build
pkg-config check libhwloc-dev gcc gfortran python3 procps"
mirror=${MPISHMEM_DEB13_MIRROR:-http://deb.debian.org/debian}

if [ -e "$marker" ] && [ "$(cat "$marker")" = "$(echo $pkgs)" ]; then
    echo "make-root.sh: reusing $dir"
    exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "make-root.sh: needs root (debootstrap, chroot)"; exit 1; }
if ! command -v debootstrap >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null ||
        { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null; }
fi
# Unmount anything a killed earlier run left mounted before removing it.
for m in "$dir/src" "$dir/dev/pts" "$dir/dev/shm" "$dir/proc"; do
    mountpoint -q "$m" 2>/dev/null && umount -l "$m"
done
rm -rf "$dir"
mkdir -p "$(dirname "$dir")"
echo "make-root.sh: debootstrap trixie into $dir"
debootstrap --variant=minbase trixie "$dir" "$mirror" >"$dir.log" 2>&1 ||
    { tail -20 "$dir.log"; echo "make-root.sh: debootstrap failed"; exit 1; }
mount -t proc proc "$dir/proc"
trap 'umount -l "$dir/proc"' EXIT
echo "make-root.sh: installing MPICH, Open MPI and the build tools"
chroot "$dir" sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends $(echo $pkgs) && apt-get clean" \
    >>"$dir.log" 2>&1 ||
    { tail -20 "$dir.log"; echo "make-root.sh: apt-get in the root failed"; exit 1; }
mkdir -p "$dir/src"
echo $pkgs >"$marker"
echo "make-root.sh: $dir complete"
