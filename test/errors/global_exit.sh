#!/bin/sh
# shmem_global_exit called by one PE stops the whole job, and the launcher
# exits with the status that PE passed.
#   global_exit.sh PATH/TO/global_exit
# Environment from meson: LAUNCH.
prog=${1:?usage: global_exit.sh PROGRAM}
: "${LAUNCH:?}"
export MPISHMEM_TEST_TIMEOUT=60 SHMEM_SYMMETRIC_SIZE=1M

. "$(dirname "$0")/../harness/outcome.sh"
outcome_begin

# expect NP SHM STATUS PE WAIT (see global_exit.c).  Only the status is
# asserted: MPICH's launcher may drop output written just before an abort.
expect()
{
    np=$1 shm=$2 want=$3 pe=$4 wait=$5
    who="PE $pe"
    [ "$pe" -lt 0 ] && who="the last PE"
    label="np $np, MPISHMEM_SHM=$shm: $who calls shmem_global_exit($want), others in $wait"
    runs=$((runs + 1))
    MPISHMEM_SHM=$shm "$LAUNCH" "$np" "$prog" "$want" "$pe" "$wait" >"$tmp/out" 2>"$tmp/err"
    status=$?
    problem=
    [ "$status" -eq "$want" ] || problem="launcher exit status $status, expected $want"
    [ "$status" -eq 124 ] && problem="timed out: the other PEs were not stopped"
    if grep -q -e "was not stopped" -e "returned" "$tmp/out"; then
        problem="${problem:+$problem; }a PE went on running"
    fi
    outcome "$label"
}

expect 2 1 7 -1 barrier
expect 2 0 7 -1 barrier
expect 3 1 7 1 barrier
expect 2 1 42 0 barrier
expect 2 1 7 -1 wait
expect 2 0 7 -1 wait

outcome_end
