#!/bin/sh
# Runs a teaching example and compares what it prints with the expected
# output that examples/expected/ holds for that PE count.
#   check_example.sh NP PROGRAM EXPECTED_FILE
# LAUNCH (from meson) starts the program; stderr is shown, not compared.
np=${1:?usage: check_example.sh NP PROGRAM EXPECTED}
prog=${2:?}
want=${3:?}
: "${LAUNCH:?}"
out=$(mktemp) || exit 1
err=$(mktemp) || exit 1
trap 'rm -f "$out" "$err"' EXIT
"$LAUNCH" "$np" "$prog" >"$out" 2>"$err"
status=$?
cat "$err"
# 77: the launcher skipped (a net shape with no cluster up).
[ "$status" -eq 77 ] && { cat "$out"; exit 77; }
if [ "$status" -ne 0 ]; then
    cat "$out"
    echo "FAIL: $prog on $np PEs: exit status $status"
    exit 1
fi
if ! diff -u "$want" "$out"; then
    echo "FAIL: $prog on $np PEs: output differs from $want (above)"
    exit 1
fi
echo "ok: $(basename "$prog") on $np PEs prints $(basename "$want")"
