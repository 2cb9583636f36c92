#!/bin/sh
# The repository holds no build or test logs (they carry machine paths), and
# new ones are ignored.  Skipped (77) outside a git checkout.
#   hygiene.sh   (MESON_SOURCE_ROOT from meson)
root=${MESON_SOURCE_ROOT:?}
command -v git >/dev/null 2>&1 && git -C "$root" rev-parse --git-dir >/dev/null 2>&1 || exit 77
status=0
tracked=$(git -C "$root" ls-files -- '*.log')
if [ -n "$tracked" ]; then
    echo "FAIL: log files are committed: $tracked"
    status=1
fi
for f in build-tsan.setup.log meson-x.test.log sub/dir/x.setup.log; do
    if ! git -C "$root" check-ignore -q --no-index -- "$f"; then
        echo "FAIL: $f would not be ignored"
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "ok: no logs committed, build logs ignored"
exit "$status"
