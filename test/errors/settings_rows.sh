#!/bin/sh
# Every row of the settings table (mpishmem-info --rows, so a new row is
# covered without touching this script): the variable set alone to a value
# its row refuses stops shmem_init itself, before the program's first line
# after it, with "shmem_init: NAME='VALUE' is not WHAT-IT-ALLOWS", a
# non-zero status from the library (no signal, no crash report) and within
# seconds.  Rows with no refused value (paths, the launcher's and MPI's
# variables) are listed and skipped.
#   settings_rows.sh PATH/TO/mpishmem-info PATH/TO/env_probe
# Environment from meson: LAUNCH.
info=${1:?usage: settings_rows.sh mpishmem-info env_probe}
prog=${2:?usage: settings_rows.sh mpishmem-info env_probe}
: "${LAUNCH:?LAUNCH must name the test launcher}"
. "${MESON_SOURCE_ROOT:?}/test/harness/outcome.sh"
. "${MESON_SOURCE_ROOT:?}/test/harness/launcher_crash.sh"
outcome_begin
export MPISHMEM_TEST_TIMEOUT=40 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
within=20 # seconds; a start takes about one
"$info" --rows >"$tmp/rows" || { echo "mpishmem-info --rows failed"; exit 1; }
[ "$(wc -l <"$tmp/rows")" -ge 20 ] || { echo "mpishmem-info --rows printed too few rows"; exit 1; }
# Nothing of ours from the caller's environment.
for name in $(cut -f1 "$tmp/rows"); do
    case $name in *'*') ;; *) unset "$name" ;; esac
done
skipped=
tab=$(printf '\t')
while IFS=$tab read -r name type scope bad allowed; do
    if [ "$bad" = - ]; then
        skipped="$skipped $name($type)"
        continue
    fi
    runs=$((runs + 1))
    for attempt in 1 2; do
        start=$(date +%s)
        env "$name=$bad" "$LAUNCH" 2 "$prog" >"$tmp/out" 2>"$tmp/err" </dev/null
        status=$?
        # Only Open MPI's launcher crashed (launcher_crash.sh): once more.
        only_launcher_crashed "$tmp/err" && [ "$attempt" -eq 1 ] &&
            { echo "note: $name=$bad: Open MPI's launcher crashed, not a PE: once more"; continue; }
        break
    done
    took=$(($(date +%s) - start))
    problem=
    want="mpishmem: shmem_init: $name='$bad' is not $allowed"
    [ "$status" -eq 0 ] && problem="exit status 0"
    [ "$status" -ge 124 ] && problem="status $status (a signal or a time-out)"
    [ "$took" -gt "$within" ] && problem="${problem:+$problem; }took $took s"
    grep -F -q -e "$want" "$tmp/err" || problem="${problem:+$problem; }no \"$want\" in stderr"
    grep -F -q "env_probe:" "$tmp/out" && problem="${problem:+$problem; }the program ran past shmem_init"
    if grep -E -q -i "segmentation|signal [0-9]|core dumped|double free" "$tmp/err"; then
        problem="${problem:+$problem; }a crash report in stderr"
    fi
    outcome "$name=$bad ($type, $scope)"
done <"$tmp/rows"
echo "no refused value (not checked):$skipped"
outcome_end
