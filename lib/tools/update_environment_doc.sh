#!/bin/sh
# Rewrite the settings table of docs/environment.md from the settings table
# the library is built with (mpishmem-info --markdown), between its
# <!-- settings-table ... --> and <!-- /settings-table --> lines.
# test/tools/info_vars.sh fails while the two differ.
#   lib/tools/update_environment_doc.sh BUILD_DIR
build=${1:?usage: update_environment_doc.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
doc=$root/docs/environment.md
table=$(mktemp) || exit 1
trap 'rm -f "$table" "$table.new"' EXIT
"$build/lib/tools/mpishmem-info" --markdown >"$table" || exit 1
awk -v table="$table" '
    /^<!-- \/settings-table/ { skip = 0 }
    !skip { print }
    /^<!-- settings-table/ { while ((getline line < table) > 0) print line; skip = 1 }
' "$doc" >"$table.new" && mv "$table.new" "$doc"
