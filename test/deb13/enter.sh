#!/bin/sh
# Runs a command inside the Debian 13 root (test/deb13/make-root.sh), in the
# source tree bind-mounted at /src:  sh test/deb13/enter.sh CMD [ARGS...]
# The mounts (/proc, /sys, a fresh /dev/shm, /dev/pts, the source tree) live
# in a mount namespace of their own, so they vanish when the command ends
# and runs by several users of one root never unmount each other's.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
root=${MPISHMEM_DEB13_ROOT:-/var/cache/mpishmem/trixie-root}
[ -e "$root/.mpishmem-complete" ] ||
    { echo "enter.sh: no complete Debian 13 root at $root (test/deb13/make-root.sh)"; exit 1; }
export MPISHMEM_DEB13_TOP="$top" MPISHMEM_DEB13_DIR="$root"
exec unshare -m --propagation private sh -c '
    set -e
    r=$MPISHMEM_DEB13_DIR
    mount -t proc proc "$r/proc"
    mount --bind /sys "$r/sys"
    mount -t tmpfs -o mode=1777 tmpfs "$r/dev/shm"
    mkdir -p "$r/dev/pts" && mount --bind /dev/pts "$r/dev/pts"
    mount --bind "$MPISHMEM_DEB13_TOP" "$r/src"
    cd /
    exec chroot "$r" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root \
        LANG=C.UTF-8 sh -c "cd /src && exec \"\$@\"" sh "$@"' sh "$@"
