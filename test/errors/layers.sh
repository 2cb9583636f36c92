#!/bin/sh
# Layers call and include downward only (docs/ARCHITECTURE.md):
#   lib -> spaces -> teams -> mpi_backend
# A layer may use itself and the layers to its right, never one to its left.
# Three checks, each failure naming the file, the symbol or header, and the
# two layers:
#   1. the "..." includes of mpi_backend/, teams/ and spaces/ (any depth)
#      name no higher folder, each include found as the compiler finds it:
#      beside the including file, else in the library's quote-include
#      folders (internal_dirs in meson.build);
#   2. no undefined symbol of a library object is defined by an object of a
#      higher layer (nm on the archive of the library's objects);
#   3. the same for the inline code of each layer's headers, compiled alone
#      with -fkeep-inline-functions (an upward call from a header would
#      otherwise hide inside the lib objects that inline it).
#   layers.sh OBJECT_ARCHIVE [DIR...]   (DIR: the quote-include folders,
#   relative to the source root; MESON_SOURCE_ROOT, MESON_BUILD_ROOT, CC
#   from meson)
root=${MESON_SOURCE_ROOT:?}
build=${MESON_BUILD_ROOT:?}
archive=${1:?usage: layers.sh libmpishmem-objs.a [DIR...]}
shift
quote_dirs=$*
quote_args=
for d in $quote_dirs; do
    quote_args="$quote_args -iquote $root/$d"
done
status=0
order='lib -> spaces -> teams -> mpi_backend'

rank() {
    case $1 in
    mpi_backend) echo 0 ;;
    teams) echo 1 ;;
    spaces) echo 2 ;;
    lib) echo 3 ;;
    *) echo -1 ;;
    esac
}

# 1. Includes.
for layer in mpi_backend teams spaces; do
    mine=$(rank "$layer")
    for f in $(find "$root/$layer" -name '*.[ch]' | sort); do
        rel=${f#"$root"/}
        grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
            sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' |
            while read -r line inc; do
                target=$(realpath -m "$(dirname "$f")/$inc")
                if [ ! -f "$target" ]; then
                    for d in $quote_dirs; do
                        if [ -f "$root/$d/$inc" ]; then
                            target=$(realpath -m "$root/$d/$inc")
                            break
                        fi
                    done
                fi
                target=${target#"$root"/}
                folder=${target%%/*}
                if [ "$(rank "$folder")" -gt "$mine" ]; then
                    echo "FAIL: $rel:$line includes \"$inc\": $layer must not include" \
                         "$folder (layers: $order)"
                    echo x
                fi
            done
    done
done >"$build/layers-includes.out"
grep '^FAIL' "$build/layers-includes.out"
grep -q '^x$' "$build/layers-includes.out" && status=1

# 2 and 3: one awk over "nm -P -A" output.  An object's layer is the first
# part of its name: meson names lib/coll/sync.c's object lib_coll_sync.c.o.
# Lines look like "archive[member]: name type value size" (or
# "file.o: name type" for a plain object).
check_nm() { # $1: nm output to check; $2: "objects", or the layer of its headers
    awk -v what="$2" -v order="$order" '
    function layer_of(obj) {
        sub(/^.*[\[\/]/, "", obj); sub(/\]$/, "", obj)
        if (obj ~ /^mpi_backend_/) return "mpi_backend"
        if (obj ~ /^teams_/) return "teams"
        if (obj ~ /^spaces_/) return "spaces"
        if (obj ~ /^lib_/) return "lib"
        return ""
    }
    function obj_of(s) { sub(/:$/, "", s); sub(/^.*[\[\/]/, "", s); sub(/\]$/, "", s); return s }
    BEGIN { rank["mpi_backend"] = 0; rank["teams"] = 1; rank["spaces"] = 2; rank["lib"] = 3 }
    FNR == NR {   # the archive: where each symbol is defined
        if ($3 != "U" && $3 != "w" && $3 != "v") {
            l = layer_of(obj_of($1))
            if (l != "" && (!($2 in def) || rank[l] < rank[def[$2]])) {
                def[$2] = l; defobj[$2] = obj_of($1)
            }
        }
        next
    }
    $3 == "U" {
        o = obj_of($1)
        l = (what == "objects") ? layer_of(o) : what
        if (l == "" || !($2 in def) || rank[def[$2]] <= rank[l]) next
        printf "FAIL: %s (%s) uses %s, defined in %s by %s: %s must not call up into %s (layers: %s)\n",
               (what == "objects") ? o : "inline code of " l "/*.h", l, $2, def[$2], defobj[$2],
               l, def[$2], order
        bad = 1
    }
    END { exit bad }' "$build/layers-nm.out" "$1"
}

nm -P -A "$archive" >"$build/layers-nm.out" || { echo "FAIL: nm $archive"; exit 1; }
check_nm "$build/layers-nm.out" objects || status=1

rename_h="$build/pshmem_rename.h"
for layer in mpi_backend teams spaces; do
    probe="$build/layers-probe-$layer"
    : >"$probe.c"
    for h in $(find "$root/$layer" -name '*.h' | sort); do
        echo "#include \"$h\"" >>"$probe.c"
    done
    # shellcheck disable=SC2086 # CC is a command line, quote_args a list
    if ! ${CC:-cc} -std=gnu11 -c -w -fkeep-inline-functions -I"$root/include" $quote_args \
            -include "$rename_h" "$probe.c" -o "$probe.o"; then
        echo "FAIL: the headers of $layer/ do not compile on their own"
        status=1
        continue
    fi
    nm -P -A "$probe.o" >"$probe.nm"
    check_nm "$probe.nm" "$layer" || status=1
done

[ "$status" -eq 0 ] && echo "ok: includes and calls go downward only ($order)"
exit "$status"
