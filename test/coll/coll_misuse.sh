#!/bin/sh
# Runs coll_misuse once per mistake and checks that the job stops with a
# non-zero status and the library's message on stderr; then checks that
# misused C11 generic collectives fail to compile, naming the problem.
#   coll_misuse.sh PATH/TO/coll_misuse
# Environment from meson: LAUNCH (the test launcher), CC, MESON_SOURCE_ROOT.
prog=${1:?usage: coll_misuse.sh PROGRAM}
: "${LAUNCH:?LAUNCH must name the test launcher}" "${CC:?}" "${MESON_SOURCE_ROOT:?}"

export MPISHMEM_TEST_TIMEOUT=60 # a hang is killed and counted as a failure
export SHMEM_SYMMETRIC_SIZE=1M
unset SHMEM_DEBUG SMA_DEBUG

out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
failed=0
total=0

report()
{
    if [ -n "$why" ]; then
        failed=$((failed + 1))
        echo "FAIL: $1: $why"
        echo "---- stderr"; head -n 30 "$out/stderr"; echo "----"
    else
        echo "ok:   $1"
    fi
}

# check DEBUG SHM CASE TEXT...: every TEXT must be on stderr.
check()
{
    debug=$1 shm=$2 name=$3
    shift 3
    total=$((total + 1))
    SHMEM_DEBUG=$debug MPISHMEM_SHM=$shm "$LAUNCH" 2 "$prog" "$name" >"$out/stdout" 2>"$out/stderr"
    rc=$?
    why=
    [ "$rc" -eq 0 ] && why="exit status 0"
    [ "$rc" -eq 124 ] && why="timed out"
    for text in "$@"; do
        grep -F -q -e "$text" "$out/stderr" || why="${why:+$why; }'$text' not on stderr"
    done
    report "$name (SHMEM_DEBUG=$debug MPISHMEM_SHM=$shm, status $rc)"
}

# SHMEM_DEBUG checks: handles, arguments every PE must pass alike,
# overlapping arrays, symmetric arrays, pSync contents.
check 1 1 space_mixed "mpishmem: shmem_long_sum_reduce: buffers " "are in different memory spaces"
check 1 0 space_mixed "mpishmem: shmem_long_sum_reduce: buffers " "are in different memory spaces"
check 1 1 team_destroyed "mpishmem: shmem_long_sum_reduce: team handle " "is not a live team"
check 1 1 fcollect_count_mismatch "mpishmem: shmem_long_fcollect: the PEs passed different values of nelems (from 1 to 2)"
check 1 0 broadcast_root_mismatch "mpishmem: shmem_long_broadcast: the PEs passed different values of PE_root (from 0 to 1)"
check 1 1 broadcast_dest_mismatch "mpishmem: shmem_long_broadcast: the PEs passed different values of dest"
check 1 1 reduce_count_mismatch "mpishmem: shmem_long_sum_reduce: the PEs passed different values of nreduce (from 3 to 4)"
check 1 1 exscan_count_mismatch "mpishmem: shmem_long_sum_exscan: the PEs passed different values of nelems (from 3 to 4)"
check 1 1 alltoalls_stride_mismatch "mpishmem: shmem_long_alltoalls: the PEs passed different values of dst (from 1 to 2)"
check 1 1 to_all_count_mismatch "mpishmem: shmem_long_max_to_all: the PEs passed different values of nreduce (from 2 to 3)"
check 1 1 reduce_overlap "mpishmem: shmem_long_sum_reduce: source " "overlap; they must be the same array or not overlap at all"
check 1 0 fcollect_overlap "mpishmem: shmem_long_fcollect: source " "overlap"
check 1 1 broadcast_overlap "mpishmem: shmem_long_broadcast: source " "overlap"
check 1 1 alltoall_overlap "mpishmem: shmem_long_alltoall: source " "overlap"
check 1 1 reduce_source_stack "mpishmem: shmem_long_max_reduce: source " "(40 bytes) is not symmetric"
check 1 0 collect_dest_private "mpishmem: shmem_long_collect: dest " "is not symmetric"
check 1 1 psync_not_sync_value "mpishmem: shmem_barrier: pSync[3] is 0, not SHMEM_SYNC_VALUE (-1)"
check 1 1 psync_stack "mpishmem: shmem_broadcast64: pSync " "is not symmetric"
check 1 1 pwrk_stack "mpishmem: shmem_long_sum_to_all: pWrk " "is not symmetric"

# Always on: one cheap branch each.
check 0 1 before_init "mpishmem: shmem_team_sync: called before shmem_init"
check 0 1 broadcast_root_range "mpishmem: shmem_long_broadcast: PE_root 5 is not a PE of the 2-PE team or active set"
check 1 1 broadcast_root_range "mpishmem: shmem_long_broadcast: PE_root 5 is not a PE"
check 0 1 broadcast64_root_range "mpishmem: shmem_broadcast64: PE_root 2 is not a PE of the 2-PE team or active set"
check 0 1 alltoalls_stride0 "mpishmem: shmem_alltoallsmem: strides dst 0 and sst 1 must be between 1 and INT_MAX"
check 0 1 alltoalls_span_wrap "mpishmem: shmem_long_alltoalls: dst 2147483647 with nelems 2147483647 for each of 2 PEs spans more than PTRDIFF_MAX bytes"
check 0 0 fcollect_negative_count "mpishmem: shmem_long_fcollect: nelems 18446744073709551615 is too large"
check 0 1 broadcast_count_over_int "mpishmem: shmem_broadcastmem: 3000000000 elements exceed INT_MAX"
check 0 1 to_all_negative_count "mpishmem: shmem_int_sum_to_all: nreduce -1 is negative"
check 0 1 aset_past_last_pe "mpishmem: shmem_barrier: invalid active set (PE_start 1, logPE_stride 0, PE_size 2) of 2 PEs: its last PE"
check 0 1 aset_not_member "mpishmem: shmem_barrier: invalid active set (PE_start 0, logPE_stride 0, PE_size 1) of 2 PEs: the calling PE is not in it"
check 0 0 aset_negative_stride "mpishmem: shmem_sync: invalid active set" "logPE_stride must be between 0 and 30"
check 1 1 aset_empty "mpishmem: shmem_fcollect32: invalid active set" "PE_size must be at least 1"

# compile_fails NAME TEXT CODE: CODE (a function body) must not compile, and
# the compiler's message must name TEXT.
compile_fails()
{
    name=$1 text=$2 code=$3
    total=$((total + 1))
    printf '#include <shmem.h>\nstruct s { int x; };\nvoid f(shmem_team_t t, long *l, double *d, struct s *p, long *ps)\n{\n    (void)t; (void)l; (void)d; (void)p; (void)ps;\n    %s;\n}\n' "$code" >"$out/c11.c"
    why=
    if $CC -std=c11 -I"$MESON_SOURCE_ROOT/include" -c "$out/c11.c" -o "$out/c11.o" \
        >"$out/stdout" 2>"$out/stderr"; then
        why="compiled"
    fi
    grep -F -q -e "$text" "$out/stderr" || why="${why:+$why; }'$text' not in the compiler's message"
    report "C11: $name"
}

# The well-formed calls compile; then each misuse fails.
total=$((total + 1))
printf '#include <shmem.h>\nvoid f(shmem_team_t t, long *l, double *d, long *ps)\n{\n    shmem_sync(t);\n    shmem_sync(0, 0, 1, ps);\n    shmem_sum_reduce(t, d, d, 1);\n    shmem_and_reduce(t, (unsigned long *)l, (unsigned long *)l, 1);\n    shmem_broadcast(t, l, l, 1, 0);\n}\n' >"$out/ok.c"
why=
$CC -std=c11 -Wall -Wextra -Werror -I"$MESON_SOURCE_ROOT/include" -c "$out/ok.c" -o "$out/ok.o" \
    >"$out/stdout" 2>"$out/stderr" || why="does not compile"
report "C11: well-formed generic collectives compile"
compile_fails "shmem_sync with 2 arguments" mpishmem_c11_shmem_sync_takes_1_or_4_arguments \
    "shmem_sync(0, 1)"
compile_fails "shmem_sum_reduce on a struct" "shmem_sum_reduce: argument dest has a type this routine does not support" \
    "shmem_sum_reduce(t, p, p, 1)"
compile_fails "shmem_and_reduce on double" "shmem_and_reduce: argument dest has a type" \
    "shmem_and_reduce(t, d, d, 1)"
compile_fails "shmem_max_reduce on double _Complex" "shmem_max_reduce: argument dest has a type" \
    "shmem_max_reduce(t, (double _Complex *)d, (double _Complex *)d, 1)"

echo "$failed of $total checks failed"
[ "$failed" -eq 0 ]
