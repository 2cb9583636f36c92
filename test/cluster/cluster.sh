#!/bin/sh
# A cluster of N nodes on this one machine that share only a network
# (docs/checks.md, "Real nodes").  Each node is a network namespace with a
# veth pair on a bridge of this run's own, entered with its own UTS, mount
# and IPC namespaces: its own host name, a fresh tmpfs on /dev/shm and its
# own /etc/hosts naming every node.  One "holder" process per node keeps
# those namespaces (and a /tmp of the node's own) alive, so every command started on a node (by the ssh
# stand-in, test/cluster/standin.sh) shares that node's /dev/shm and IPC
# the way processes on one real node do, and nothing else.
#
#   cluster.sh up [N]           make N nodes (default 2); prints the state dir
#   cluster.sh down STATE       tear the cluster at STATE down
#   cluster.sh run [N] CMD...   up, CMD with MPISHMEM_CLUSTER=STATE, down
#
# env: CLUSTER_ROOT=DIR   nodes run their commands chrooted in DIR (the
#                         Debian 13 root, test/deb13/make-root.sh), with
#                         /proc, /sys, /dev/pts and the source tree at /src
#                         mounted as test/deb13/enter.sh does
#      CLUSTER_NETEM="delay 50us rate 10gbit"   tc netem on every node's link
# Exit 77 (skipped) when not root or `ip netns` is unavailable.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

die() { echo "cluster.sh: $*" >&2; exit 1; }

preflight() {
    [ "$(id -u)" -eq 0 ] || { echo "SKIP: cluster.sh needs root (namespaces)"; exit 77; }
    for t in ip unshare nsenter; do
        command -v $t >/dev/null || { echo "SKIP: cluster.sh needs $t"; exit 77; }
    done
    ip netns list >/dev/null 2>&1 || { echo "SKIP: ip netns unavailable"; exit 77; }
}

# down STATE: kill every process in the nodes' network namespaces (the
# holders and whatever was started there), then the namespaces, links and
# files.  The nodes' mounts live in the holders' mount namespaces and go
# with their last process.  Refuses a cluster whose owner is still alive
# unless the caller is that owner.
down() {
    st=$1
    [ -f "$st/cluster" ] || die "no cluster at $st"
    . "$st/cluster"
    if [ "$owner" != "${2:-$$}" ] && kill -0 "$owner" 2>/dev/null &&
        [ "${2:-}" != force ]; then
        die "cluster at $st belongs to running process $owner (down $st force)"
    fi
    for i in $(seq 1 "$nodes"); do
        ns=${prefix}n$i
        ip netns list 2>/dev/null | grep -q "^$ns\b" || continue
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] && kill $pids 2>/dev/null
        k=0
        while [ -n "$(ip netns pids "$ns" 2>/dev/null)" ] && [ $k -lt 30 ]; do
            sleep 0.1; k=$((k + 1))
        done
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] && kill -9 $pids 2>/dev/null && sleep 0.2
        ip netns del "$ns" 2>/dev/null
    done
    ip link del "$bridge" 2>/dev/null
    rm -rf "/tmp/mpishmem-cluster-net.$subnet" "$st"
}

# up N: prints the state dir on success; on any failure tears down what
# it made and exits non-zero.
up() {
    n=${1:-2}
    case $n in ''|*[!0-9]*) die "node count must be a number, not '$n'" ;; esac
    [ "$n" -ge 1 ] && [ "$n" -le 32 ] || die "1 to 32 nodes, not $n"
    root=${CLUSTER_ROOT:-}
    if [ -n "$root" ]; then
        [ -e "$root/.mpishmem-complete" ] || die "no complete root at $root (test/deb13/make-root.sh)"
        # Inside the root /tmp is $root/tmp: the state dir must be seen at
        # one path by the host and by every node.
        st=$(mktemp -d "$root/tmp/mpishmem-cluster.XXXXXX") || die "mktemp"
        stin=${st#"$root"}
    else
        st=$(mktemp -d /tmp/mpishmem-cluster.XXXXXX) || die "mktemp"
        stin=$st
    fi
    chmod 755 "$st"
    # Names unique to this run (interface names: 15 characters at most).
    id=$(printf %x $$)
    prefix=msh$id
    bridge=${prefix}b
    # A /24 of 10.77.0.0/16 that no other run holds: claimed by an
    # atomic mkdir naming its owner; a dead owner's claim is taken over.
    subnet=
    s0=$(( $$ % 250 + 1 ))
    for k in $(seq 0 249); do
        s=$(( (s0 + k) % 250 + 1 ))
        c=/tmp/mpishmem-cluster-net.$s
        if mkdir "$c" 2>/dev/null; then
            :
        elif o=$(cat "$c/owner" 2>/dev/null) && ! kill -0 "$o" 2>/dev/null; then
            :   # its run died without tearing down
        else
            continue
        fi
        ip -4 route 2>/dev/null | grep -q "^10\.77\.$s\.0/24" && continue
        echo "$$" >"$c/owner"
        subnet=$s
        break
    done
    [ -n "$subnet" ] || { rm -rf "$st"; die "no free 10.77.x.0/24"; }
    net=10.77.$subnet
    cat >"$st/cluster" <<EOF
owner=$$
nodes=$n
prefix=$prefix
bridge=$bridge
subnet=$subnet
net=$net
root='$root'
stin='$stin'
EOF
    trap 'down "$st" >/dev/null 2>&1; exit 1' INT TERM
    fail() { echo "cluster.sh: $*" >&2; down "$st" >/dev/null 2>&1; exit 1; }
    ip link add "$bridge" type bridge || fail "cannot make bridge $bridge"
    # The bridge side (10.77.x.254): for daemons that serve every node
    # (slurmctld); it routes nowhere else.
    ip addr add "$net.254/24" dev "$bridge" && ip link set "$bridge" up ||
        fail "cannot bring up $bridge"
    {
        echo "127.0.0.1 localhost"
        echo "$net.254 head"
        for i in $(seq 1 "$n"); do echo "$net.$i node$i"; done
    } >"$st/hosts"
    : >"$st/nodes"
    grep ' /sys/fs/cgroup' /proc/mounts >"$st/cgroups"
    for i in $(seq 1 "$n"); do
        ns=${prefix}n$i
        ip netns add "$ns" || fail "cannot add netns $ns"
        ip link add "${prefix}v$i" type veth peer name "${prefix}p$i" || fail "veth $i"
        ip link set "${prefix}v$i" master "$bridge" && ip link set "${prefix}v$i" up &&
            ip link set "${prefix}p$i" netns "$ns" &&
            ip -n "$ns" link set "${prefix}p$i" name eth0 &&
            ip -n "$ns" addr add "$net.$i/24" dev eth0 &&
            ip -n "$ns" link set eth0 up &&
            ip -n "$ns" link set lo up || fail "cannot wire node $i"
        if [ -n "${CLUSTER_NETEM:-}" ]; then
            # shellcheck disable=SC2086
            ip netns exec "$ns" tc qdisc add dev eth0 root netem $CLUSTER_NETEM ||
                fail "tc netem $CLUSTER_NETEM refused"
        fi
        # The holder: its own host name, /dev/shm, /etc/hosts (and, with
        # CLUSTER_ROOT, the root's mounts), then it sleeps until down.
        ip netns exec "$ns" unshare --uts --mount --ipc --propagation private sh -c '
            set -e
            st=$1 i=$2 root=$3 top=$4 st_in=$5
            hostname "node$i"
            mount -t tmpfs -o mode=1777 tmpfs /dev/shm
            mount --bind "$st/hosts" /etc/hosts
            # ip netns exec mounted a /sys of the node'"'"'s own, without the
            # cgroup tree a node'"'"'s daemons (slurmd) expect: the host'"'"'s
            # layout again (the same hierarchies, v1, v2 or both).
            while read -r src dir type opts rest; do
                mkdir -p "$dir" 2>/dev/null
                mount -t "$type" -o "$opts" "$src" "$dir" 2>/dev/null || true
            done <"$st/cgroups"
            # A /tmp of its own, as a real node has (daemons such as Slurm'"'"'s
            # PMIx plugin name their files there by job, not by node), with
            # the cluster'"'"'s state dir kept at its path in it, and the
            # source tree and CLUSTER_KEEP (a build directory) when they lie
            # under /tmp (a shared file system, on a real cluster).
            keep=$st_in
            [ -z "$root" ] && keep="$keep $top ${CLUSTER_KEEP:-}"
            mount --bind "$root/tmp" /mnt
            mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
            for p in $keep; do
                case $p in
                /tmp/?*)
                    rel=${p#/tmp/}
                    mkdir -p "$root/tmp/$rel"
                    mount --bind "/mnt/$rel" "$root/tmp/$rel" ;;
                esac
            done
            umount -l /mnt
            if [ -n "$root" ]; then
                mount -t proc proc "$root/proc"
                mount --bind /sys "$root/sys"
                mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
                mkdir -p "$root/dev/pts" && mount --bind /dev/pts "$root/dev/pts"
                mount --bind "$top" "$root/src"
                mount --bind "$st/hosts" "$root/etc/hosts"
                echo $$ >"$st/node$i.pid"
                cd /
                exec chroot "$root" sleep infinity
            fi
            echo $$ >"$st/node$i.pid"
            exec sleep infinity' holder "$st" "$i" "$root" "$top" "$stin" \
            </dev/null >"$st/node$i.log" 2>&1 &
        echo "$net.$i node$i $ns" >>"$st/nodes"
    done
    for i in $(seq 1 "$n"); do
        k=0
        while [ ! -s "$st/node$i.pid" ]; do
            k=$((k + 1))
            [ $k -gt 50 ] && fail "node $i did not start: $(cat "$st/node$i.log")"
            sleep 0.1
        done
    done
    # Loopback and the link must be up before anyone launches (MPI's own
    # runs are what show that packets pass: test/cluster/cluster_view.c).
    for i in $(seq 1 "$n"); do
        ip -n "${prefix}n$i" -o link show up | grep -q ' lo:' ||
            fail "node $i: loopback is down"
        ip -n "${prefix}n$i" -o link show up | grep -q ' eth0@' ||
            fail "node $i: eth0 is down"
    done
    cp "$here/standin.sh" "$st/standin"
    chmod 755 "$st/standin"
    trap - INT TERM
    echo "$stin"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
up)
    preflight
    up "${1:-2}"
    ;;
down)
    [ $# -ge 1 ] || die "usage: cluster.sh down STATE [force]"
    st=$1
    # A state dir as the nodes see it (inside CLUSTER_ROOT) or the host's.
    [ -f "$st/cluster" ] || [ -z "${CLUSTER_ROOT:-}" ] || st=$CLUSTER_ROOT$st
    down "$st" "${2:-$PPID}"
    ;;
run)
    preflight
    n=2
    case ${1:-} in ''|*[!0-9]*) ;; *) n=$1; shift ;; esac
    [ $# -gt 0 ] || die "usage: cluster.sh run [N] CMD..."
    stin=$(up "$n") || exit 1
    st=${CLUSTER_ROOT:-}$stin
    trap 'down "$st"' EXIT
    trap 'exit 1' INT TERM HUP
    MPISHMEM_CLUSTER=$stin "$@"
    ;;
*)
    echo "usage: cluster.sh up [N] | down STATE | run [N] CMD..." >&2
    exit 2
    ;;
esac
