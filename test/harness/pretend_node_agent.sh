#!/bin/sh
# Open MPI's rsh agent for pretend nodes on this machine (the tests' hybrid
# runs; docs/globals.md).  mpiexec --host node1:2,node2:2 calls it as
#   pretend_node_agent.sh HOST COMMAND...
# to start its daemon (orted) on HOST.  Instead of logging in anywhere, it
# starts the daemon here, in a UTS namespace of its own whose host name is
# HOST: Open MPI takes a process's node from its daemon's host name, so
# MPI_COMM_TYPE_SHARED splits the job by HOST, while the processes still
# share this machine's memory, network and /proc (needs root, for unshare).
host=${1:?usage: pretend_node_agent.sh HOST COMMAND...}
shift
# The command comes as words that a remote shell would join and run.
exec unshare --uts sh -c 'hostname "$1" && shift && exec sh -c "$*"' agent "$host" "$@"
