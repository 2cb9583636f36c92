# Shared by the scripts that launch a job expected to stop with an error.
# Open MPI 4.1's launcher itself (its HNP, "[[job,0],0]") may crash in
# show_help when several PEs abort at once (seen under load: "Data unpack
# had inadequate space", then SIGSEGV in the HNP); the PEs did stop as they
# should.  only_launcher_crashed FILE: true when FILE (the job's stderr)
# holds crash reports and every one is the launcher's, so a caller may run
# the case once more; a PE's own crash is never excused.
only_launcher_crashed()
{
    hnp=$(sed -n 's/^\[[^]:]*:\([0-9]*\)\] \[\[[0-9]*,0\],0\] .*/\1/p' "$1" | head -n 1)
    [ -n "$hnp" ] && grep -q "Process received signal" "$1" &&
        ! grep "Process received signal" "$1" | grep -q -v "^\[[^]:]*:$hnp\]"
}
