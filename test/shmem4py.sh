#!/bin/sh
# shmem4py, the Python bindings for OpenSHMEM, built against an installed
# mpishmem with the README's steps ("Python"), then its own test suite on
# 2 PEs.  A failure of its tests is a failure of ours.
#   sh test/shmem4py.sh PREFIX       (PREFIX: where mpishmem is installed)
# The sources come from ../shared/peers/shmem4py-*.tar.gz beside this
# checkout (CI lays shared/ there) and are unpacked in a temporary
# directory.  Exit status 77 (skipped) when they are not there.
prefix=${1:?usage: test/shmem4py.sh PREFIX}
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=$(ls "$top"/../shared/peers/shmem4py-*.tar.gz 2>/dev/null | head -n 1)
if [ -z "$tarball" ]; then
    echo "shmem4py: SKIPPED: no ../shared/peers/shmem4py-*.tar.gz beside $top"
    exit 77
fi
# Debian's python3-cffi/python3-numpy live in the system Python; another
# python3 may come first in PATH.
python=
for p in ${PYTHON:-python3 /usr/bin/python3}; do
    if "$p" -c 'import cffi, numpy, setuptools' 2>/dev/null; then
        python=$p
        break
    fi
done
if [ -z "$python" ]; then
    echo "shmem4py: FAILED: no python3 with cffi, numpy and setuptools (test/deps.sh installs python3-cffi python3-numpy python3-dev python3-setuptools)"
    exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
unset MPISHMEM_LINK MPISHMEM_CC

# The README's steps.
export PATH="$prefix/bin:$PATH"
tar -xzf "$tarball" -C "$tmp" && cd "$tmp"/shmem4py-* || exit 1
start=$(date +%s)
if ! OSHCC="oshcc -include mpishmem/shmem4py.h" "$python" setup.py build_ext --inplace \
        >"$tmp/build.log" 2>&1; then
    tail -n 40 "$tmp/build.log"
    echo "shmem4py: FAILED: the build ($(basename "$tarball"))"
    exit 1
fi
built=$(date +%s)
PYTHONPATH=$PWD/src timeout 600 oshrun -n 2 "$python" -m unittest discover -s test \
    >"$tmp/test.log" 2>&1
status=$?
tail -n 4 "$tmp/test.log"
if [ "$status" -ne 0 ] || ! grep -q '^OK' "$tmp/test.log"; then
    grep -E -A 12 '^(FAIL|ERROR):' "$tmp/test.log" | head -n 80
    echo "shmem4py: FAILED: its test suite on 2 PEs (exit status $status)"
    exit 1
fi
echo "shmem4py: $(grep -m 1 '^Ran ' "$tmp/test.log") on each of 2 PEs: OK" \
     "(build $((built - start)) s, tests $(($(date +%s) - built)) s)"
