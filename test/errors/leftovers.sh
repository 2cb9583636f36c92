#!/bin/sh
# Nothing stays in /dev/shm after a run, however it ends (issue 11): a normal
# exit, shmem_global_exit, or a PE killed with SIGKILL after start-up, with
# the load/store path on and off.
#   leftovers.sh PATH/TO/leftovers
# Environment from meson: LAUNCH.
#
# Other tests may run at the same time with /dev/shm files of their own, so
# the check is on the files this job's PEs had mapped or open just before
# the end (the program lists them): none may still exist afterwards.  The
# library's own objects have no name at all (memfd).
prog=${1:?usage: leftovers.sh PROGRAM}
: "${LAUNCH:?}"
export MPISHMEM_TEST_TIMEOUT=60 SHMEM_SYMMETRIC_SIZE=8M

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export LEFTOVERS_LIST="$tmp/list"
failures=0
runs=0

# The listed files that still exist; the launcher may clean up just after
# it returns, so look twice.
left_behind()
{
    cat "$tmp"/list.* 2>/dev/null | sed 's/ (deleted)$//' | sort -u >"$tmp/files"
    for try in 1 2; do
        left=
        while read -r f; do
            [ -e "$f" ] && left="$left $f"
        done <"$tmp/files"
        [ -z "$left" ] && return 0
        [ "$try" = 1 ] && sleep 2
    done
    echo "$left"
}

# expect NP SHM HOW STATUS
expect()
{
    np=$1 shm=$2 how=$3 want=$4
    label="np $np, MPISHMEM_SHM=$shm, $how"
    runs=$((runs + 1))
    rm -f "$tmp"/list.*
    MPISHMEM_SHM=$shm "$LAUNCH" "$np" "$prog" "$how" >"$tmp/out" 2>"$tmp/err"
    status=$?
    problem=
    case $want in
        0) [ "$status" -eq 0 ] || problem="exit status $status, expected 0" ;;
        nonzero) [ "$status" -ne 0 ] || problem="exit status 0 after a PE was killed" ;;
        *) [ "$status" -eq "$want" ] || problem="exit status $status, expected $want" ;;
    esac
    [ "$status" -eq 124 ] && problem="timed out"
    grep -q "was not stopped" "$tmp/out" && problem="${problem:+$problem; }a PE went on running"
    lists=$(ls "$tmp"/list.* 2>/dev/null | wc -l)
    [ "$lists" -eq "$np" ] || problem="${problem:+$problem; }$lists of $np PEs listed their files"
    left=$(left_behind)
    [ -n "$left" ] && problem="${problem:+$problem; }left behind: $(echo $left)"
    if [ -n "$problem" ]; then
        failures=$((failures + 1))
        echo "FAIL: $label: $problem"
        echo "---- stderr"; head -n 20 "$tmp/err"
        echo "----"
    else
        echo "ok:   $label"
    fi
}

for shm in 1 0; do
    for np in 2 3; do
        expect "$np" "$shm" exit 0
        expect "$np" "$shm" global_exit 5
        expect "$np" "$shm" kill nonzero
    done
done

echo "$failures of $runs runs failed"
[ "$failures" -eq 0 ]
