#!/bin/sh
# mpishmem-info lists exactly the environment variables the sources read.
# "Read" = a string literal that looks like a variable name (SHMEM_*, SMA_*,
# MPISHMEM_*) in the library sources, minus the names the public headers
# #define (handles such as SHMEM_TEAM_WORLD), plus every mpishmem_env("...").
# Every listed name must appear in the sources, and getenv only in
# mpi_backend/settings/env_read.c.
# Also: mpishmem-info runs without mpiexec (singleton) and prints every
# variable with its meaning.
#   info_vars.sh PATH/TO/mpishmem-info
info=${1:?usage: info_vars.sh mpishmem-info}
info=$(cd "$(dirname "$info")" && pwd)/$(basename "$info")
root=${MESON_SOURCE_ROOT:?}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "$root" || exit 1
srcs=$(find lib spaces teams mpi_backend -name '*.[ch]' ! -name 'env_table.[ch]' ! -path 'lib/tools/*' ! -path 'lib/fortran/*')
# shellcheck disable=SC2086
grep -ohE '"(SHMEM|SMA|MPISHMEM)_[A-Z0-9_]+"' $srcs | tr -d '"' | sort -u >"$tmp/literals"
grep -rhoE '#define +(SHMEM|SMA|MPISHMEM)_[A-Z0-9_]+' include | awk '{print $2}' | sort -u >"$tmp/defined"
# shellcheck disable=SC2086
grep -ohE 'mpishmem_env\("[A-Za-z0-9_]+"' $srcs | sed 's/mpishmem_env("//; s/"$//' >"$tmp/read"
{ comm -23 "$tmp/literals" "$tmp/defined"; cat "$tmp/read"; } | sort -u >"$tmp/source"
"$info" --vars | sort >"$tmp/listed" || { echo "mpishmem-info --vars failed"; exit 1; }
# Every name the sources read is listed ...
missing=$(comm -23 "$tmp/source" "$tmp/listed")
if [ -n "$missing" ]; then
    echo "read by the sources but not in the settings table (mpi_backend/settings/env_table.c):"
    echo "$missing"
    exit 1
fi
# ... and every listed name (a prefix row by its prefix) is in the sources.
# shellcheck disable=SC2086
for v in $(cat "$tmp/listed"); do
    p=${v%\*}
    grep -qF "\"$p" $srcs || { echo "$v is in the settings table but no source reads it"; exit 1; }
done
# docs/environment.md holds the table as mpishmem-info --markdown prints it.
sed -n '/^<!-- settings-table/,/^<!-- \/settings-table/p' docs/environment.md | sed '1d;$d' >"$tmp/doc_table"
"$info" --markdown >"$tmp/tool_table" || { echo "mpishmem-info --markdown failed"; exit 1; }
if ! cmp -s "$tmp/doc_table" "$tmp/tool_table"; then
    echo "docs/environment.md's settings table (<) is not mpishmem-info --markdown (>):"
    diff "$tmp/doc_table" "$tmp/tool_table"
    exit 1
fi
# getenv itself appears in one file: every read goes through the table.
others=$(grep -rlE '\bgetenv\(' lib spaces teams mpi_backend | grep -v '^mpi_backend/settings/env_read.c$')
if [ -n "$others" ]; then
    echo "getenv outside mpi_backend/settings/env_read.c (read through mpishmem_env instead):"
    echo "$others"
    exit 1
fi
echo "ok: $(wc -l <"$tmp/listed") variables listed, as read by the sources"
MPISHMEM_CTX_LANES=3 timeout 120 "$info" >"$tmp/out" 2>&1 || { cat "$tmp/out"; echo "mpishmem-info failed without mpiexec"; exit 1; }
for v in $(cat "$tmp/listed"); do
    grep -qF "  $v " "$tmp/out" || { echo "mpishmem-info does not print $v"; exit 1; }
done
for pat in "OpenSHMEM specification: 1.6" "^MPI: " "Thread level available: SHMEM_THREAD_" \
           "On-node load/store path: " "SHMEM_SPACE_CPU " "^  cpu: " "MPISHMEM_CTX_LANES  *'3'"; do
    grep -q "$pat" "$tmp/out" || { cat "$tmp/out"; echo "mpishmem-info output lacks '$pat'"; exit 1; }
done
echo "ok: mpishmem-info runs without mpiexec and prints every variable's value and meaning"
