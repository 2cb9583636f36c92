#!/bin/sh
# The Fortran interface is complete, exercised and consistent with C:
#  1. every routine of the lists next to this script (fortran-functions.txt:
#     the 1.0 draft; fortran-1.4-functions.txt: the 1.4 specification;
#     fortran-extras.txt: the Cray-era routines) is defined in each library
#     under gfortran's name (lower case + "_") and its "__" alias;
#  2. each is called by a Fortran test here ("call NAME" or "NAME(" outside
#     comments; a declaration does not count);
#  3. shmem.fh's constants match shmem.h's: pSync sizes count 4-byte
#     INTEGERs, so they are C's (in longs) times sizeof(long)/4; the others
#     are equal.
# Usage: symbols.sh libmpishmem.a [libmpishmem.so]
# Environment from meson: CC, MESON_SOURCE_ROOT.
set -e
here=$(dirname "$0")
inc=${MESON_SOURCE_ROOT:?}/include
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
problems=0
problem()
{
    echo "$*"
    problems=$((problems + 1))
}

grep -hv '^#' "$here/fortran-functions.txt" "$here/fortran-1.4-functions.txt" \
    "$here/fortran-extras.txt" | cut -f1 | tr 'A-Z' 'a-z' | sort -u >"$tmp/names"
total=$(wc -l <"$tmp/names")

# 1. Definitions, in every library given.
sed 's/$/_/' "$tmp/names" >"$tmp/wanted"
sed 's/$/__/' "$tmp/names" >>"$tmp/wanted"
sort -o "$tmp/wanted" "$tmp/wanted"
for lib in "$@"; do
    case $lib in
    *.so*) nm -D --defined-only "$lib" ;;
    *) nm -g --defined-only "$lib" ;;
    esac | awk '$2 == "T" || $2 == "W" { print $3 }' | sort -u >"$tmp/defined"
    for sym in $(comm -23 "$tmp/wanted" "$tmp/defined"); do
        problem "missing in $(basename "$lib"): $sym"
    done
done

# 2. Calls: the tests' code in lower case, fixed-form comment lines and
# everything after a '!' removed.
for f in "$here"/*.f "$here"/*.f90; do
    case $f in
    *.f) awk '!/^[cC*]/' "$f" ;;
    *) cat "$f" ;;
    esac
done | sed 's/!.*//' | tr 'A-Z' 'a-z' >"$tmp/code"
while read -r name; do
    grep -Eq "(^|[^a-z0-9_])(call[[:space:]]+$name([^a-z0-9_]|\$)|$name[[:space:]]*\\()" \
        "$tmp/code" || problem "not called by any test in test/fortran: $name"
done <"$tmp/names"

# 3. Constants: "NAME VALUE" from each header (the version is the Fortran
# interface's own, 1.4: the tests compare it with SHMEM_INFO_GET_VERSION).
grep -o 'SHMEM_[A-Z_]*=-\?[0-9][0-9]*' "$inc/shmem.fh" | grep -v '_VERSION=' | tr '=' ' ' |
    sort >"$tmp/fortran"
{
    echo '#include <shmem.h>'
    echo '#define MPISHMEM_NAME(x) #x'
    while read -r c v; do
        echo "MPISHMEM_NAME($c) $c"
    done <"$tmp/fortran"
} >"$tmp/c.c"
# shellcheck disable=SC2086
$CC -E -P -I"$inc" "$tmp/c.c" | grep '^"SHMEM_' |
    sed 's/["()]//g; s/\([0-9]\)L$/\1/' | sort >"$tmp/c"
long_ints=$(($(getconf LONG_BIT) / 32))
while read -r c v; do
    cv=$(awk -v c="$c" '$1 == c { print $2 }' "$tmp/c")
    want=$cv
    case $c in *_SYNC_SIZE) [ -n "$cv" ] && want=$((cv * long_ints)) ;; esac
    [ -n "$cv" ] && [ "$v" = "$want" ] ||
        problem "shmem.fh: $c is $v, shmem.h gives ${cv:-nothing} (want ${want:-a value})"
done <"$tmp/fortran"
nconst=$(wc -l <"$tmp/fortran")

echo "fortran interface: $total routines in $# libraries, $nconst constants, $problems problems"
[ "$total" -ge 186 ] && [ "$nconst" -ge 16 ] && [ "$problems" -eq 0 ]
