#!/bin/sh
# SHMEM_GLOBAL_EXIT called from Fortran by one PE ends the whole job with
# the status it passed, at 2 and 3 PEs, shm on and off.
#   exit.sh PATH/TO/fortran_exit     (LAUNCH from meson)
prog=${1:?usage: exit.sh PROGRAM}
: "${LAUNCH:?}"
export MPISHMEM_TEST_TIMEOUT=60
out=$(mktemp)
trap 'rm -f "$out"' EXIT
failed=0
# NP MPISHMEM_SHM STATUS PE
for run in "2 1 7 -1" "2 0 7 -1" "3 1 5 0" "3 0 9 1"; do
    set -- $run
    MPISHMEM_SHM=$2 "$LAUNCH" "$1" "$prog" "$3" "$4" >"$out" 2>&1
    got=$?
    if [ "$got" -eq "$3" ]; then
        echo "ok:   np $1, shm $2: PE $4 exits with $3"
    else
        echo "FAIL: np $1, shm $2: PE $4 passed $3, the job ended with $got"
        head -n 20 "$out"
        failed=1
    fi
done
exit $failed
