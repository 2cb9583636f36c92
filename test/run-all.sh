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
# The API families whose coverage must be 100%.
families=setup,query,memory,rma,rma-nbi,ordering,p2p-sync,amo,amo-nbi,signal,lock,team,ctx,session,spaces,collective

# count NAME COMMAND...: run a step, count it as one pass or one failure.
count()
{
    name=$1
    shift
    if "$@"; then
        echo "=== $name: passed"
        passed=$((passed + 1))
    else
        echo "=== $name: FAILED"
        failed=$((failed + 1))
    fi
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
for mpi in ${MPISHMEM_MPIS:-mpich openmpi}; do
    dir="build-test-$mpi"
    echo "=== $mpi: configure and build ($dir)"
    rm -rf "$dir"
    if ! CC="mpicc.$mpi" meson setup "$dir" >"$dir.setup.log" 2>&1 || ! ninja -C "$dir"; then
        cat "$dir.setup.log" 2>/dev/null
        echo "=== $mpi: BUILD FAILED"
        failed=$((failed + 1))
        continue
    fi
    echo "=== $mpi: tests"
    meson test -C "$dir" --print-errorlogs --num-processes 1 >"$dir/test.out" 2>&1
    grep -E '^ *[0-9]+/[0-9]+ ' "$dir/test.out" | grep -vE ' OK +[0-9.]+s$' || true
    ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$dir/test.out")
    bad=0
    for k in Fail Timeout "Unexpected Pass"; do
        n=$(sed -n "s/^$k: *\([0-9]*\).*/\1/p" "$dir/test.out")
        bad=$((bad + ${n:-0}))
    done
    [ -z "$ok" ] && { tail -40 "$dir/test.out"; bad=$((bad + 1)); ok=0; }
    echo "=== $mpi: $ok passed, $bad failed"
    [ "$bad" -gt 0 ] && sed -n '/^Summary of Failures/,$p' "$dir/test.out"
    passed=$((passed + ok))
    failed=$((failed + bad))

    # Mutants of the ordering and completion code must each fail a test
    # (test/mutation.sh, docs/checks.md): own scratch build, about 2-3 min.
    count "mutation check ($mpi)" sh test/mutation.sh "$mpi"

    # This build installed, as users install it: the API check uses it.
    prefix="$top/$dir/_install"
    if ! { meson configure "$dir" --prefix="$prefix" >/dev/null &&
           meson install -C "$dir" >>"$dir.setup.log" 2>&1; }; then
        tail -20 "$dir.setup.log"
        echo "=== $mpi: INSTALL FAILED"
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
                     [ "${a%/*}" = "${a#*/}" ] && passed=$((passed + 1)) || failed=$((failed + 1)) ;;
        esac
    fi
done
# CUDA-enabled builds, when the toolkit is installed (it is on our CI image).
if [ -e /usr/local/cuda/include/cuda_runtime_api.h ] || command -v nvcc >/dev/null 2>&1; then
    for mpi in ${MPISHMEM_MPIS:-mpich openmpi}; do
        count "CUDA-enabled build, spaces tests ($mpi)" cuda_build "$mpi"
    done
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

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
