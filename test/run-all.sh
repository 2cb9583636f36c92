#!/bin/sh
# Builds mpishmem against each MPI and runs the whole test suite.
#   sh test/run-all.sh            # MPICH and Open MPI
#   MPISHMEM_MPIS=mpich sh test/run-all.sh
# Ends with one line "N passed, N failed"; exits non-zero on any failure.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
sh test/deps.sh || { echo "test/run-all.sh: could not install dependencies"; exit 1; }

passed=0
failed=0
# What failed, repeated on the last lines: CI keeps only the tail.
failures=
note_failure() { failures="$failures
  $*"; }

# The Debian 13 root (MPICH 4.2, Open MPI 5) is made in the background
# while the host's suites run: mostly download and unpacking (about 4 min
# on a new machine; reused afterwards). MPISHMEM_DEB13=0 skips that part.
deb13_pid=
if [ "${MPISHMEM_DEB13:-1}" != 0 ]; then
    sh test/deb13/make-root.sh >deb13-root.setup.log 2>&1 &
    deb13_pid=$!
fi
# The API families whose coverage must be 100%.
families=setup,query,memory,rma,rma-nbi,ordering,p2p-sync,amo,amo-nbi,signal,lock,team,ctx,session,spaces,collective

# count NAME COMMAND...: run a step, count it as one pass or one failure
# (exit 77: skipped, counted as neither); each verdict says how long the
# step took, so CI's 60 minutes can be accounted for.
count()
{
    name=$1
    shift
    t0=$(date +%s)
    "$@"
    rc=$?
    took="$(($(date +%s) - t0)) s"
    if [ $rc -eq 0 ]; then
        echo "=== $name: passed ($took)"
        passed=$((passed + 1))
    elif [ $rc -eq 77 ]; then
        echo "=== $name: skipped ($took)"
    else
        echo "=== $name: FAILED ($took)"
        note_failure "$name"
        failed=$((failed + 1))
    fi
}

# The between-node set on real (namespace) nodes, per MPI (test/cluster,
# docs/checks.md "Real nodes"): what each MPI runs there.
cluster_args()
{
    case $1 in
        # MPICH 4.0.2 hangs in its own MPI_Finalize across nodes, at 3 PEs
        # or more in about half the runs, at 2 PEs in about 1 of 30
        # (docs/mpi-quirks.md): only the check that its launcher places
        # PEs on real nodes; MPICH 4.2.1 runs the whole set.
        mpich) echo "cluster_view-net2x1" ;;
        # Open MPI 4.1.4: the core set, examples too (their check leaves
        # out UCX's "Endpoint timeout" lines at exit).
        openmpi) echo "--suite cluster-core" ;;
        deb13-mpich) echo "--suite cluster" ;;
        # Open MPI 5.0.7: the core set, to keep CI within its hour (its
        # whole set passed: docs/checks.md); MPICH 4.2.1 runs it all.
        deb13-openmpi) echo "--suite cluster-core" ;;
    esac
}
cluster_set()
{
    t0=$(date +%s)
    sh test/cluster/run_set.sh "$@" >"$1.cluster.log" 2>&1
    rc=$?
    grep -E '^ *[0-9]+/[0-9]+ ' "$1.cluster.log" | grep -vE ' OK +[0-9.]+s$'
    grep -E '^(Ok|Fail|Timeout|Skipped):' "$1.cluster.log" | tr '\n' ' '
    echo "($(( $(date +%s) - t0 )) s)"
    [ $rc -ne 0 ] && [ $rc -ne 77 ] && tail -30 "$1.cluster.log"
    for t in $(grep -E '^ *[0-9]+/[0-9]+ .* (FAIL|TIMEOUT|ERROR) ' "$1.cluster.log" |
               sed -n 's|^ *[0-9]*/[0-9]* [^ ]* / \([^ ]*\) .*|\1|p' | sort -u); do
        note_failure "$1: $t"
    done
    return $rc
}

# The GPU-space code compiled against the CUDA headers (no GPU is needed:
# the spaces tests then check that GPU requests degrade as documented).
cuda_build()
{
    mpi=$1 dir="build-test-cuda-$1"
    rm -rf "$dir"
    CC="mpicc.$mpi" meson setup "$dir" -Dcuda=enabled -Dbenchmarks=false >"$dir.setup.log" 2>&1 &&
        ninja -C "$dir" >/dev/null &&
        meson test -C "$dir" --suite spaces --num-processes 1 >"$dir.test.log" 2>&1 &&
        meson test -C "$dir" spaces_env --num-processes 1 >>"$dir.test.log" 2>&1 ||
        { tail -40 "$dir.setup.log" "$dir.test.log" 2>/dev/null; return 1; }
}
first_mpi=$(echo ${MPISHMEM_MPIS:-mpich openmpi} | cut -d' ' -f1)
for mpi in ${MPISHMEM_MPIS:-mpich openmpi}; do
    dir="build-test-$mpi"
    echo "=== $mpi: configure and build ($dir)"
    rm -rf "$dir"
    if ! CC="mpicc.$mpi" meson setup "$dir" >"$dir.setup.log" 2>&1 || ! ninja -C "$dir"; then
        cat "$dir.setup.log" 2>/dev/null
        echo "=== $mpi: BUILD FAILED"
        note_failure "$mpi: build"
        failed=$((failed + 1))
        continue
    fi
    echo "=== $mpi: tests"
    # The tutorial's and README's commands (suite docs: a whole optimised
    # library build, 2-3 minutes) run on the first MPI only.
    # The net shapes run below, on a cluster (skipped here without one).
    skip="--no-suite cluster"
    [ "$mpi" = "$first_mpi" ] || skip="$skip --no-suite docs"
    t0=$(date +%s)
    meson test -C "$dir" --print-errorlogs --num-processes 1 $skip >"$dir/test.out" 2>&1
    took="$(($(date +%s) - t0)) s"
    grep -E '^ *[0-9]+/[0-9]+ ' "$dir/test.out" | grep -vE ' OK +[0-9.]+s$' || true
    ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$dir/test.out")
    bad=0
    for k in Fail Timeout "Unexpected Pass"; do
        n=$(sed -n "s/^$k: *\([0-9]*\).*/\1/p" "$dir/test.out")
        bad=$((bad + ${n:-0}))
    done
    [ -z "$ok" ] && { tail -40 "$dir/test.out"; bad=$((bad + 1)); ok=0; }
    echo "=== $mpi: $ok passed, $bad failed ($took)"
    [ "$bad" -gt 0 ] && sed -n '/^Summary of Failures/,$p' "$dir/test.out"
    for t in $(grep -E '^ *[0-9]+/[0-9]+ .* (FAIL|TIMEOUT|UNEXPECTEDPASS|ERROR) ' "$dir/test.out" |
               sed -n 's|^ *[0-9]*/[0-9]* [^ ]* / \([^ ]*\) .*|\1|p' | sort -u); do
        note_failure "$mpi: $t"
    done
    [ -z "$ok" ] && note_failure "$mpi: meson test printed no summary"
    passed=$((passed + ok))
    failed=$((failed + bad))

    # shellcheck disable=SC2046
    count "cluster set ($mpi)" cluster_set "$dir" $(cluster_args "$mpi")
    # Slurm across two namespace nodes: sbatch -N2 with mpiexec, srun -N2.
    flags=
    [ "$mpi" = openmpi ] && flags="--oversubscribe --mca btl_base_warn_component_unused 0"
    count "Slurm on two nodes ($mpi)" env MPIEXEC="mpiexec.$mpi" MPIEXEC_FLAGS="$flags" \
        MPI_FLAVOR="$mpi" timeout 300 sh test/cluster/slurm_nodes.sh "$top/$dir/test/cluster_view"

    # Mutants of the ordering and completion code must each fail a test
    # (test/mutation.sh, docs/checks.md): own scratch build, about 2-3 min.
    # On the first MPI only: rma_delayed, which kills them, replaces MPI's
    # RMA with its own delaying one, so a second MPI adds little.
    [ "$mpi" = "$first_mpi" ] && count "mutation check ($mpi)" sh test/mutation.sh "$mpi"

    # This build installed, as users install it: the API check uses it.
    prefix="$top/$dir/_install"
    if ! { meson configure "$dir" --prefix="$prefix" >/dev/null &&
           meson install -C "$dir" >>"$dir.setup.log" 2>&1; }; then
        tail -20 "$dir.setup.log"
        echo "=== $mpi: INSTALL FAILED"
        note_failure "$mpi: install"
        failed=$((failed + 1))
        continue
    fi

    # Acceptance: every routine of the families this build covers is defined.
    checker="$top/../shared/api/check-symbols"
    if [ -x "$checker" ]; then
        cov=$("$checker" --header "mpicc.$mpi -I$prefix/include" \
              --family "$families" \
              "$prefix/lib/libmpishmem.a" | tail -1)
        echo "=== $mpi: $cov"
        case "$cov" in
            *" "*/*) a=${cov#api coverage: }; a=${a%% *}
                     if [ "${a%/*}" = "${a#*/}" ]; then passed=$((passed + 1))
                     else failed=$((failed + 1)); note_failure "$mpi: $cov"; fi ;;
        esac
    fi
done
# CUDA-enabled builds, when the toolkit is installed (it is on our CI image).
if [ -e /usr/local/cuda/include/cuda_runtime_api.h ] || command -v nvcc >/dev/null 2>&1; then
    # One MPI: the GPU paths that differ by MPI (GPU-aware or not) are
    # emulated by the stand-in's own MPI shim (docs/spaces.md).
    count "CUDA-enabled build, spaces tests ($first_mpi)" cuda_build "$first_mpi"
else
    echo "=== CUDA toolkit not installed: CUDA-enabled build skipped"
fi

# The release tarball (meson dist of HEAD) configures, builds, installs and
# runs an example from a clean directory: one MPI, about 1-3 min.
dist_mpi=${MPISHMEM_MPIS:-mpich}
dist_mpi=${dist_mpi%% *}
count "dist tarball check ($dist_mpi)" sh test/dist_check.sh "$dist_mpi"

# Threaded contexts under ThreadSanitizer (MPICH).
case " ${MPISHMEM_MPIS:-mpich openmpi} " in
    *" mpich "*) count "ThreadSanitizer, threaded ctx tests" sh test/tsan.sh ;;
esac

# The core set on Debian 13's MPICH 4.2 and Open MPI 5 (test/deb13/core.sh).
if [ -n "$deb13_pid" ]; then
    if wait "$deb13_pid"; then
        for mpi in mpich openmpi; do
            rm -rf "build-deb13-$mpi"
            count "Debian 13 $mpi core set" sh test/deb13/enter.sh sh test/deb13/core.sh "$mpi"
            # core.sh configured build-deb13-$mpi; the nodes run in the root.
            export CLUSTER_ROOT="${MPISHMEM_DEB13_ROOT:-/var/cache/mpishmem/trixie-root}"
            # Open MPI 5.0.7: sync_test_sleep's shmem_test_lock phase took
            # over its 2 s bound at 2 x 2 in 1 of 10 runs (docs/checks.md).
            export CLUSTER_SKIP=
            [ "$mpi" = openmpi ] && CLUSTER_SKIP=sync_test_sleep-net2x2
            # shellcheck disable=SC2046
            count "Debian 13 $mpi cluster set" cluster_set "build-deb13-$mpi" $(cluster_args "deb13-$mpi")
            unset CLUSTER_ROOT CLUSTER_SKIP
        done
    else
        tail -20 deb13-root.setup.log
        echo "=== Debian 13 root: FAILED"
        note_failure "Debian 13 root"
        failed=$((failed + 1))
    fi
fi

[ -n "$failures" ] && echo "=== what failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
