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

    # Acceptance: every routine of the families this build covers is defined.
    checker="$top/../shared/api/check-symbols"
    if [ -x "$checker" ]; then
        prefix="$top/$dir/_install"
        meson configure "$dir" --prefix="$prefix" >/dev/null && meson install -C "$dir" >/dev/null
        cov=$("$checker" --header "mpicc.$mpi -I$prefix/include" \
              --family setup,query,memory,rma,rma-nbi,ordering,p2p-sync,amo,amo-nbi,signal,lock,collective \
              "$prefix/lib/libmpishmem.a" | tail -1)
        echo "=== $mpi: $cov"
        case "$cov" in
            *" "*/*) a=${cov#api coverage: }; a=${a%% *}
                     [ "${a%/*}" = "${a#*/}" ] && passed=$((passed + 1)) || failed=$((failed + 1)) ;;
        esac
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
