#!/bin/sh
# The library's tables must not grow with the job (issue 19): the same
# program at 2, 4 and 8 PEs on pretend nodes of one PE each, and at 4 and 8
# PEs on nodes of two, must report the same bytes at start-up and after a
# put to one PE; after puts to every PE the growth must stay within a fixed
# number of bytes per target touched.  Fails if any table has an entry per
# PE of the job (as the peer and dirty tables did: 8 + 4 x lanes bytes per
# PE per segment).
#   LAUNCH=.../launch.sh tables.sh PROBE
set -u
probe=$1
. "$(dirname "$0")/../harness/outcome.sh"
outcome_begin
per_target_max=512   # bytes per target touched: dirty-set entries, all lanes, both segments

# check LABEL PROBLEM: one verdict (PROBLEM empty: passed).
check() {
    runs=$((runs + 1))
    problem=$2
    outcome "$1"
}

# run NODES NP: prints NODE_SIZE B0 B1 B2, or nothing.
run() {
    MPISHMEM_TEST_NODES=$1 "$LAUNCH" "$2" "$probe" >"$tmp/out" 2>"$tmp/err"
    grep '^tables ' "$tmp/out" >&2
    sed -n 's/^tables .*node=\([0-9]*\) init=\([0-9-]*\) one=\([0-9-]*\) all=\([0-9-]*\)$/\1 \2 \3 \4/p' "$tmp/out"
}

for per_node in 1 2; do
    ref=
    for np in 2 4 8; do
        nodes=$((np / per_node))
        [ "$nodes" -ge 2 ] || continue
        label="$np PEs on $nodes nodes"
        r=$(run "$nodes" "$np")
        if [ -z "$r" ]; then
            check "$label: report" "the probe printed no tables line"
            continue
        fi
        set -- $r
        check "$label: node size $1" "$([ "$1" -eq "$per_node" ] || echo "expected $per_node")"
        grow=$(( $4 - $3 ))
        limit=$(( per_target_max * (np - 1) ))
        check "$label: puts to all PEs added $grow bytes (limit $limit)" \
            "$([ "$grow" -le "$limit" ] || echo "more than $per_target_max bytes per target")"
        if [ -z "$ref" ]; then
            ref="$2 $3"
            continue
        fi
        check "$label: start-up and one-put bytes $2 $3 (smallest job: $ref)" \
            "$([ "$2 $3" = "$ref" ] || echo "they differ: a table grows with the job")"
    done
done
outcome_end
