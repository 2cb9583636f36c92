#!/bin/sh
# Every routine of the OpenSHMEM 1.0 Fortran interface
# (fortran-functions.txt, from the 1.0 draft) is defined in the library
# under gfortran's name (lower case + "_") and its "__" alias.
# Usage: symbols.sh LIST libmpishmem.a
set -e
list=$1
lib=$2
defined=$(mktemp)
trap 'rm -f "$defined"' EXIT
nm -g --defined-only "$lib" | awk '$2 == "T" { print $3 }' | sort -u >"$defined"
missing=0
total=0
for name in $(grep -v '^#' "$list" | cut -f1 | tr 'A-Z' 'a-z'); do
    total=$((total + 1))
    for sym in "${name}_" "${name}__"; do
        if ! grep -qx "$sym" "$defined"; then
            echo "missing: $sym"
            missing=$((missing + 1))
        fi
    done
done
echo "fortran coverage: $total routines, $missing symbols missing"
[ "$total" -ge 124 ] && [ "$missing" -eq 0 ]
