#!/bin/sh
# The pictures in docs/tutorial/ are what examples/tutorial_maps.sh draws:
# run it on this build and compare pixels (the PNG bytes may differ with
# the zlib version).  Environment from meson: MESON_SOURCE_ROOT,
# MESON_BUILD_ROOT, LAUNCH.
: "${MESON_SOURCE_ROOT:?}" "${MESON_BUILD_ROOT:?}" "${LAUNCH:?}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
BUILD=$MESON_BUILD_ROOT OUT=$tmp sh "$MESON_SOURCE_ROOT/examples/tutorial_maps.sh" ||
    { echo "FAIL: examples/tutorial_maps.sh"; exit 1; }
status=0
for ex in 04_heat 05_histogram; do
    python3 "$(dirname "$0")/same_png.py" "$MESON_SOURCE_ROOT/docs/tutorial/$ex.png" "$tmp/$ex.png" ||
        { echo "FAIL: docs/tutorial/$ex.png is not what tutorial_maps.sh draws (rerun it)"; status=1; }
done
[ "$status" -eq 0 ] && echo "ok: docs/tutorial/*.png are the maps tutorial_maps.sh draws"
exit "$status"
