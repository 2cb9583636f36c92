#!/bin/sh
# The cluster's ssh (test/cluster/cluster.sh copies it into the state dir
# as "standin"): MPICH's hydra (-launcher ssh -launcher-exec STANDIN) and
# Open MPI (--mca plm_rsh_agent STANDIN) call it as they would call ssh,
#   standin [SSH OPTIONS] HOST COMMAND...
# It drops ssh's options, finds HOST's node (by address or name) and runs
# COMMAND there: in that node's network, UTS, IPC and mount namespaces
# (and its root, with CLUSTER_ROOT), through the node's holder process, so
# it shares the node's /dev/shm with everything else on that node only.
# As ssh does, it starts COMMAND with a login's environment, not the
# caller's; MPISHMEM_CLUSTER_KEEPENV=1 keeps the caller's (the harness's
# own first hop onto a node, as a batch script would have it).
st=$(cd "$(dirname "$0")" && pwd)
[ -f "$st/nodes" ] || { echo "standin: no cluster at $st" >&2; exit 255; }
while [ $# -gt 0 ]; do
    case $1 in
        -[bcDEeFIiJLlmOoPpQRSWw]) shift 2 ;;   # options with an argument
        -*) shift ;;
        *) break ;;
    esac
done
host=${1:?usage: standin [SSH OPTIONS] HOST COMMAND...}
shift
[ $# -gt 0 ] || { echo "standin: no command for $host (no logins here)" >&2; exit 255; }
node=$(awk -v h="$host" '$1 == h || $2 == h { sub(/^node/, "", $2); print $2; exit }' "$st/nodes")
[ -n "$node" ] || { echo "standin: $host is not a node of the cluster at $st" >&2; exit 255; }
pid=$(cat "$st/node$node.pid" 2>/dev/null)
[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null ||
    { echo "standin: node$node's holder is gone (cluster down?)" >&2; exit 255; }
. "$st/cluster"
r= w=
# -w: the holder's working directory, so the shell does not start in one
# the node's root cannot reach.
[ -n "$root" ] && r=-r w=-w
if [ "${MPISHMEM_CLUSTER_KEEPENV:-}" = 1 ]; then
    unset MPISHMEM_CLUSTER_KEEPENV
    # ... and its working directory (the same tree is seen on every node).
    exec nsenter -t "$pid" -n -u -i -m $r $w -- sh -c 'cd "$2" 2>/dev/null || cd /; exec sh -c "$1"' standin "$*" "$PWD"
fi
exec nsenter -t "$pid" -n -u -i -m $r $w -- /usr/bin/env -i HOME=/root USER=root LOGNAME=root \
    SHELL=/bin/sh LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    sh -c 'cd ~ 2>/dev/null || cd /; exec sh -c "$1"' standin "$*"
