#!/bin/sh
# The plan of routes (mpi_backend/runtime/route_plan.h) is printed whole by
# SHMEM_INFO=1 at shmem_init and by mpishmem-info, and a setting that
# forces a route shows in it: MPISHMEM_BARRIER, MPISHMEM_SHM,
# MPISHMEM_YIELD, MPISHMEM_CTX_LANES.  rma_needs_target comes from the MPI
# that runs (MPICH: 1, Open MPI: 0).  Each team's line (teams/team_plan.h):
# SHMEM_TEAM_WORLD's and SHMEM_TEAM_SHARED's with the plan, those of teams
# made later (plan_teams: a strided and a 2D split) as they are made, with
# the route their shape and the settings give, on two pretend nodes too.
#   plan_info.sh PATH/TO/env_probe PATH/TO/mpishmem-info PATH/TO/plan_teams
# Environment from meson: LAUNCH, MPI_FLAVOR.
prog=${1:?usage: plan_info.sh env_probe mpishmem-info}
info=${2:?usage: plan_info.sh env_probe mpishmem-info plan_teams}
teams=${3:?usage: plan_info.sh env_probe mpishmem-info plan_teams}
. "${MESON_SOURCE_ROOT:?}/test/harness/outcome.sh"
outcome_begin
export MPISHMEM_TEST_TIMEOUT=60 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset MPISHMEM_BARRIER MPISHMEM_SHM MPISHMEM_YIELD MPISHMEM_CTX_LANES SHMEM_INFO SMA_INFO \
    MPISHMEM_TEST_NODES
fields="mpi_family rma_needs_target shm waiting wait_by_request sched_apart ctx_lanes progress_thread amo_am barrier"
case $MPI_FLAVOR in mpich) target=1 ;; *) target=0 ;; esac
# run LABEL PROGRAM "VAR=value ..." LINE...: every LINE is in stdout (a
# LINE "team ..." is an extended regular expression; mpishmem-info prints
# the predefined teams' lines too).  NP PEs (2).
run()
{
    label=$1 program=$2 settings=$3
    shift 3
    runs=$((runs + 1))
    # shellcheck disable=SC2086 # word splitting of the settings is intended
    env $settings "$LAUNCH" "${NP:-2}" "$program" >"$tmp/out" 2>"$tmp/err"
    status=$?
    problem=
    [ "$status" -eq 0 ] || problem="exit status $status"
    for f in $fields; do
        grep -q "^mpishmem: plan: $f = " "$tmp/out" || problem="${problem:+$problem; }no plan field $f"
    done
    grep -q "^mpishmem: plan: segment 'symmetric heap': rma = .*, amo = .*, gpu = .*, lanes = " \
        "$tmp/out" || problem="${problem:+$problem; }no route line for the heap"
    # Where MPISHMEM_BARRIER leaves the flags' algorithm to the plan
    # (expected lines say shm-auto): central where waits sleep on them,
    # yielding with PEs in other scheduling groups (route_plan.c).
    auto=shm-dissemination
    grep -q -x "mpishmem: plan: waiting = yield" "$tmp/out" &&
        grep -q -x "mpishmem: plan: sched_apart = 1" "$tmp/out" && auto=shm-central
    for line in "$@"; do
        line=$(printf '%s\n' "$line" | sed "s/shm-auto/$auto/g")
        case $line in
        team*) grep -q -x -E "mpishmem: plan: $line" "$tmp/out" ;;
        *) grep -q -x -F "mpishmem: plan: $line" "$tmp/out" ;;
        esac || problem="${problem:+$problem; }no '$line'"
    done
    for team in SHMEM_TEAM_WORLD SHMEM_TEAM_SHARED; do
        [ "$(grep -c "^mpishmem: plan: team '$team': barrier = " "$tmp/out")" = 1 ] ||
            problem="${problem:+$problem; }not one line for $team"
    done
    outcome "$label: $settings"
}
# A team's line: team NAME BARRIER SMALL PES (mpi collectives: either).
team()
{
    echo "team '$1': barrier = $2, small collectives = $3, mpi collectives = (blocking|polled), pes = $4"
}
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1" "rma_needs_target = $target" "shm = 1" \
    "$(team SHMEM_TEAM_WORLD shm-auto "node slots" 2)" \
    "$(team SHMEM_TEAM_SHARED shm-auto "node slots" 2)"
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_BARRIER=shm-central" "barrier = shm-central" \
    "$(team SHMEM_TEAM_WORLD shm-central "node slots" 2)"
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_BARRIER=MPI" "barrier = mpi" \
    "$(team SHMEM_TEAM_WORLD "mpi \(MPISHMEM_BARRIER=mpi\)" mpi 2)"
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_SHM=0 MPISHMEM_BARRIER=shm" "shm = 0" "barrier = mpi" \
    "$(team SHMEM_TEAM_WORLD "mpi \(MPISHMEM_SHM=0\)" mpi 2)" \
    "$(team SHMEM_TEAM_SHARED "mpi \(MPISHMEM_SHM=0\)" mpi 1)"
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_YIELD=1 MPISHMEM_CTX_LANES=2" "waiting = yield" \
    "ctx_lanes = 2" "wait_by_request = $target" \
    "team 'SHMEM_TEAM_WORLD': barrier = shm-auto, small collectives = node slots, mpi collectives = polled, pes = 2"
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_YIELD=0" "waiting = spin" "wait_by_request = 0" \
    "team 'SHMEM_TEAM_WORLD': barrier = shm-auto, small collectives = node slots, mpi collectives = blocking, pes = 2"
run "mpishmem-info" "$info" "MPISHMEM_SHM=0" "shm = 0" "barrier = mpi" \
    "$(team SHMEM_TEAM_WORLD "mpi \(MPISHMEM_SHM=0\)" mpi 2)"
# Teams made later, at 4 PEs: evens (0, 2), 2D rows (0-1, 2-3), columns
# (0, 2 and 1, 3); forced routes; on two pretend nodes the teams that
# span them (world, evens, columns) take MPI's barrier, the rest flags.
NP=4
run "split teams" "$teams" "SHMEM_INFO=1" \
    "$(team "world PEs 0..2 step 2" shm-auto "node slots" 2)" \
    "$(team "world PEs 0..1" shm-auto "node slots" 2)" \
    "$(team "world PEs 2..3" shm-auto "node slots" 2)" \
    "$(team "world PEs 1..3 step 2" shm-auto "node slots" 2)"
run "split teams" "$teams" "SHMEM_INFO=1 MPISHMEM_BARRIER=shm-central" \
    "$(team SHMEM_TEAM_WORLD shm-central "node slots" 4)" \
    "$(team "world PEs 0..2 step 2" shm-central "node slots" 2)" \
    "$(team "world PEs 2..3" shm-central "node slots" 2)"
run "split teams" "$teams" "SHMEM_INFO=1 MPISHMEM_BARRIER=mpi" \
    "$(team "world PEs 0..2 step 2" "mpi \(MPISHMEM_BARRIER=mpi\)" mpi 2)" \
    "$(team "world PEs 2..3" "mpi \(MPISHMEM_BARRIER=mpi\)" mpi 2)"
# Open MPI's pretend nodes need host names of their own (test/meson.build).
[ "$MPI_FLAVOR" = mpich ] || unshare --uts true 2>/dev/null &&
run "split teams" "$teams" "SHMEM_INFO=1 MPISHMEM_TEST_NODES=2" \
    "$(team SHMEM_TEAM_WORLD "mpi \(members on several nodes\)" mpi 4)" \
    "$(team SHMEM_TEAM_SHARED shm-auto "node slots" 2)" \
    "$(team "world PEs 0..2 step 2" "mpi \(members on several nodes\)" mpi 2)" \
    "$(team "world PEs 1..3 step 2" "mpi \(members on several nodes\)" mpi 2)" \
    "$(team "world PEs 0..1" shm-auto "node slots" 2)" \
    "$(team "world PEs 2..3" shm-auto "node slots" 2)"
NP=2
# Window memory MPI allocates for what only MPI reaches (MPISHMEM_SHM=0):
# planned on Open MPI (osc/sm listed, as shmem_init sets), shown for the
# global data; MPISHMEM_WIN_ALLOCATE=0 turns it off.
case $MPI_FLAVOR in openmpi) wa=1 ;; *) wa=0 ;; esac
if [ "$wa" = 1 ]; then
    run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_SHM=0" "win_allocate = 1" \
        "segment 'global data': rma = MPI RMA, amo = MPI atomics, gpu = host memory, lanes = 1, memory = MPI's (MPI_Win_allocate)"
else
    run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_SHM=0" "win_allocate = 0"
fi
run "SHMEM_INFO" "$prog" "SHMEM_INFO=1 MPISHMEM_SHM=0 MPISHMEM_WIN_ALLOCATE=0" "win_allocate = 0"
outcome_end
