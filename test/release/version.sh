#!/bin/sh
# The release's numbers agree: meson.build's version is what CHANGELOG.md
# names, what mpishmem-info and shmem_info_get_name report, and what the
# installed pkg-config files, CMake version file and modulefiles carry; the
# shared library's SONAME is the one README.md's "Compatibility" section
# promises (libmpishmem.so.MAJOR).  Installs the build with --destdir.
# Usage: version.sh VERSION MPISHMEM_INFO   (from meson: the project version)
# Environment from meson: MESON_SOURCE_ROOT, MESON_BUILD_ROOT.
: "${MESON_SOURCE_ROOT:?}" "${MESON_BUILD_ROOT:?}"
version=$1
info=$2
major=${version%%.*}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 SHMEM_SYMMETRIC_SIZE=4M
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failures=0
# check LABEL COMMAND...: run COMMAND silently; report.
check()
{
    label=$1
    shift
    if "$@" >"$tmp/log" 2>&1; then
        echo "ok:   $label"
    else
        echo "FAIL: $label"
        head -n 20 "$tmp/log"
        failures=$((failures + 1))
    fi
}
src=$MESON_SOURCE_ROOT
readme=$src/README.md

check "meson.build declares $version" grep -q "^  version : '$version',\$" "$src/meson.build"
# CHANGELOG.md: its first section is this version, or an Unreleased one
# with this version's right below it.
check "CHANGELOG.md has a section '## $version'" grep -qE "^## \\[?$version\\]?( |\$)" "$src/CHANGELOG.md"
check "CHANGELOG.md's first sections are '## Unreleased' or '## $version'" sh -c \
    "grep '^## ' '$src/CHANGELOG.md' | sed 1{/^##\ Unreleased\$/d} | head -1 | grep -qE '^## \\[?$version\\]?( |\$)'"

# The promise: README's Compatibility section names the SONAME.
sed -n '/^## Compatibility/,/^## /p' "$readme" >"$tmp/compat"
check "README.md has a Compatibility section naming libmpishmem.so.$major" \
    grep -q "libmpishmem\.so\.$major\b" "$tmp/compat"
check "README.md and docs/*.md name no other SONAME" sh -c \
    "! cat '$readme' '$src'/docs/*.md | grep -o 'libmpishmem\.so\.[0-9][0-9]*' | grep -vqx 'libmpishmem\.so\.$major'"
check "README.md's find_package asks for major version $major" sh -c \
    "grep -q 'find_package(mpishmem $major\.' '$readme'"

check "mpishmem-info reports mpishmem $version and the name" sh -c \
    "timeout 60 '$info' | head -1 | grep -q '^mpishmem $version: mpishmem $version ('"

# The installed files.
if ! DESTDIR=$tmp/dest meson install -C "$MESON_BUILD_ROOT" --no-rebuild --quiet >"$tmp/install.log" 2>&1; then
    echo "FAIL: meson install --destdir"
    tail -20 "$tmp/install.log"
    exit 1
fi
prefix=$(meson introspect --buildoptions "$MESON_BUILD_ROOT" |
         python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')
root=$tmp/dest$prefix
so=$(find "$root" -name 'libmpishmem.so.*.*.*' | head -1)
if [ -n "$so" ]; then
    check "the shared library is libmpishmem.so.$version" test "$(basename "$so")" = "libmpishmem.so.$version"
    check "its SONAME is libmpishmem.so.$major (README)" sh -c \
        "readelf -d '$so' | grep -q 'SONAME.*\[libmpishmem\.so\.$major\]\$'"
fi
for pc in "$root"/lib*/pkgconfig/mpishmem*.pc; do
    check "$(basename "$pc") says Version: $version" grep -qx "Version: $version" "$pc"
done
cv=$(find "$root" -name mpishmemConfigVersion.cmake)
check "the CMake version file says $version" grep -q "PACKAGE_VERSION \"$version\"" "$cv"
mf=$root/share/modulefiles/mpishmem
check "modulefiles mpishmem/$version (Tcl) and $version.lua are installed" \
    test -f "$mf/$version" -a -f "$mf/$version.lua"
check "the modulefiles point at the prefix $prefix" sh -c \
    "grep -q 'PATH.*$prefix/bin' '$mf/$version' && grep -q 'PATH.*$prefix/bin' '$mf/$version.lua'"

[ "$failures" -eq 0 ] && echo "all checks passed"
[ "$failures" -eq 0 ]
