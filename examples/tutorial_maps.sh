#!/bin/sh
# Draws the communication maps that docs/tutorial.md shows: 04_heat and
# 05_histogram on 4 PEs under MPISHMEM_TRACE, drawn by mpishmem-trace.
#   sh examples/tutorial_maps.sh          (MPICH; MPI=openmpi for Open MPI)
# builds the library and examples as run-demo.sh does and rewrites
# docs/tutorial/04_heat.png and docs/tutorial/05_histogram.png.
# The test examples_tutorial_maps runs it with BUILD (a configured build
# directory), LAUNCH (a command taking NP PROGRAM) and OUT (where to write).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
mpi=${MPI:-mpich}
out=${OUT:-$top/docs/tutorial}
if [ -z "${BUILD:-}" ]; then
    sh "$top/test/deps.sh"
    BUILD=$top/build-demo-$mpi
    [ -d "$BUILD" ] || CC="mpicc.$mpi" meson setup "$BUILD" "$top" -Dtests=false \
        -Dbenchmarks=false >/dev/null
    ninja -C "$BUILD" examples/04_heat examples/05_histogram lib/tools/mpishmem-trace >/dev/null
fi
launch()
{
    if [ -n "${LAUNCH:-}" ]; then
        "$LAUNCH" "$@"
    else
        np=$1
        shift
        flags=""
        [ "$mpi" = openmpi ] && flags="--oversubscribe"
        # shellcheck disable=SC2086
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
            timeout 120 "mpiexec.$mpi" $flags -n "$np" "$@"
    fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
for ex in 04_heat 05_histogram; do
    MPISHMEM_TRACE=$tmp/$ex.csv launch 4 "$BUILD/examples/$ex" >/dev/null
    python3 "$BUILD/lib/tools/mpishmem-trace" --metric ops --cell 40 -o "$out/$ex.png" "$tmp/$ex.csv"
    echo "wrote $out/$ex.png"
done
