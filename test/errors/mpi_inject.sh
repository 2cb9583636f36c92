#!/bin/sh
# The one MPI error rule (docs/checks.md, "MPI errors"): an MPI call of the
# library that fails stops the job with "mpishmem: <routine>: <call> failed:
# <MPI's error string>" and a non-zero status; with nothing injected the
# program runs clean.  Then the sources: no MPI call whose result is ignored
# (mpi_rule.py).
#   mpi_inject.sh PATH/TO/mpi_inject
# Environment from meson: LAUNCH, MESON_SOURCE_ROOT.
prog=${1:?usage: mpi_inject.sh PROGRAM}
: "${LAUNCH:?}" "${MESON_SOURCE_ROOT:?}"
export MPISHMEM_TEST_TIMEOUT=60 SHMEM_SYMMETRIC_SIZE=1M MPISHMEM_SHM=0 MPISHMEM_BARRIER=mpi

. "$(dirname "$0")/../harness/outcome.sh"
outcome_begin

# expect CALL AT [late]: CALL fails from its AT'th call on; "late": in
# shmem_finalize, after the program's own work.
expect()
{
    call=$1 at=$2 late=$3
    label="$call fails (from call $at)"
    runs=$((runs + 1))
    MPISHMEM_TEST_FAIL=$call MPISHMEM_TEST_FAIL_AT=$at "$LAUNCH" 2 "$prog" >"$tmp/out" 2>"$tmp/err"
    status=$?
    problem=
    [ "$status" -ne 0 ] || problem="exit status 0"
    [ "$status" -eq 124 ] && problem="timed out: the failure was not caught"
    if [ -z "$late" ] && grep -q "done" "$tmp/out"; then
        problem="${problem:+$problem; }the program went on to the end"
    fi
    grep -qE "^mpishmem: [a-z_0-9]+: $call failed: .+" "$tmp/err" ||
        problem="${problem:+$problem; }no 'mpishmem: <routine>: $call failed: <reason>' message"
    outcome "$label"
}

runs=$((runs + 1))
label="nothing injected"
"$LAUNCH" 2 "$prog" >"$tmp/out" 2>"$tmp/err"
status=$?
problem=
[ "$status" -eq 0 ] || problem="exit status $status"
[ "$(grep -c done "$tmp/out")" -eq 2 ] || problem="${problem:+$problem; }not both PEs finished"
outcome "$label"

# The barriers between nodes and on the MPI path are the library's own
# messages (mpishmem_barrier_comm); at 2 PEs one MPI_Isend each.
expect MPI_Isend 0         # shmem_init's first barrier
expect MPI_Isend 1         # the program's first shmem_barrier_all (MPISHMEM_BARRIER=mpi)
expect MPI_Isend 3 late    # shmem_finalize's barrier
expect MPI_Iallreduce 0    # shmem_init's settings agreement
expect MPI_Comm_idup 0     # shmem_init's own communicators
expect MPI_Put 0           # shmem_long_p through MPI
expect MPI_Win_flush 0     # shmem_quiet

runs=$((runs + 1))
label="sources: every MPI call checked (test/errors/mpi_rule.py)"
python3 "$MESON_SOURCE_ROOT/test/errors/mpi_rule.py" "$MESON_SOURCE_ROOT" >"$tmp/out" 2>&1
status=$?
problem=
[ "$status" -eq 0 ] || problem=$(cat "$tmp/out")
outcome "$label"

outcome_end
