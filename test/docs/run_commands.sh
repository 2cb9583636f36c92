#!/bin/sh
# Runs, as written, every shell command of docs/tutorial.md and of the
# README's quick start (sections "Build and install", "Compile and run a
# program", "CMake"): each ```sh block, line by line, stopping at the first
# command that fails.  On a copy of the source tree, with HOME in a
# temporary directory (so $HOME/shmem is a fresh prefix) and PATH as on a
# fresh machine where test/deps.sh has run.
#   sh test/docs/run_commands.sh [mpich|openmpi]
# With an MPI named, `mpicc`, `mpicxx` and `mpiexec` are that MPI's (as on a
# machine where it is the default); without, the system's.  What a user is
# told to set where it applies is set: Open MPI's --oversubscribe and
# run-as-root variables.  Working directories: "Build and install" and the
# tutorial in the copy's root; "Compile and run a program" in a directory
# holding app.c (examples/01_hello.c); "CMake" in one holding app.c and the
# section's CMakeLists.txt.
set -u
src=${MESON_SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
mpi=${1:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)

# blocks FILE SECTION-REGEX LANG: the lines of the ```LANG blocks of the
# sections (## headings) matching SECTION-REGEX; continued lines joined.
blocks()
{
    awk -v sec="$2" -v lang="$3" '
        /^## / { insec = ($0 ~ sec) }
        /^```/ { if (fence) { fence = 0; take = 0; next }
                 fence = 1; take = (insec && $0 == "```" lang); next }
        take { if (sub(/\\$/, "")) { cont = cont $0; next }
               print cont $0; cont = "" }' "$1"
}
# script FILE SECTION-REGEX: a sh script that runs the section's commands
# one by one, echoing each, and stops at the first that fails.
script()
{
    blocks "$1" "$2" sh | awk '
        { q = $0; gsub(/\047/, "\047\\\047\047", q)
          print "echo \047$ " q "\047"
          print $0
          print "rc=$?; [ $rc -eq 0 ] || { echo \"FAILED (exit status $rc): \"\047" q "\047; exit 1; }" }'
}

# The copy: the files git knows (committed or not), else the whole tree.
mkdir -p "$tmp/src" "$tmp/home" "$tmp/bin"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$src" && git ls-files -co --exclude-standard | while read -r f; do
        [ -f "$f" ] && printf '%s\n' "$f"; done | tar cf - -T -) | tar xf - -C "$tmp/src"
else
    (cd "$src" && tar cf - --exclude='./build*' .) | tar xf - -C "$tmp/src"
fi
if [ -n "$mpi" ]; then
    for t in mpicc mpicxx mpiexec; do
        printf '#!/bin/sh\nexec %s.%s "$@"\n' "$t" "$mpi" >"$tmp/bin/$t"
        chmod +x "$tmp/bin/$t"
    done
fi
flavor=$(sh -c "PATH=$tmp/bin:\$PATH; mpicc -show 2>/dev/null || mpicc --showme" | grep -q openmpi && echo openmpi || echo mpich)
env_setup="export HOME='$tmp/home' PATH='$tmp/bin:/usr/local/bin:/usr/bin:/bin'
unset MANPATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH LD_LIBRARY_PATH CC MPISHMEM_CC MPISHMEM_LINK"
if [ "$flavor" = openmpi ]; then
    env_setup="$env_setup
export OMPI_MCA_rmaps_base_oversubscribe=1"
    [ "$(id -u)" -eq 0 ] && env_setup="$env_setup
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
fi

failed=0
# run LABEL DIR FILE SECTION-REGEX: the section's commands in DIR.
run()
{
    label=$1 dir=$2
    { echo "$env_setup"; echo "cd '$dir' || exit 1"; script "$3" "$4"; } >"$tmp/run.sh"
    n=$(blocks "$3" "$4" sh | wc -l)
    if [ "$n" -eq 0 ]; then
        echo "FAIL: $label: no commands found"
        failed=$((failed + 1))
        return
    fi
    t0=$(date +%s)
    if timeout 900 sh "$tmp/run.sh" >"$tmp/out" 2>&1; then
        echo "ok:   $label ($n commands, $(($(date +%s) - t0)) s)"
    else
        echo "FAIL: $label"
        tail -n 30 "$tmp/out"
        failed=$((failed + 1))
    fi
}
echo "MPI: $flavor; copy of $src in $tmp/src"
run "README: Build and install" "$tmp/src" "$src/README.md" '^## Build and install'
mkdir -p "$tmp/app" "$tmp/cmakeapp"
cp "$src/examples/01_hello.c" "$tmp/app/app.c"
cp "$src/examples/01_hello.c" "$tmp/cmakeapp/app.c"
run "README: Compile and run a program" "$tmp/app" "$src/README.md" '^## Compile and run a program'
blocks "$src/README.md" '^## CMake' cmake >"$tmp/cmakeapp/CMakeLists.txt"
run "README: CMake" "$tmp/cmakeapp" "$src/README.md" '^## CMake'
run "docs/tutorial.md" "$tmp/src" "$src/docs/tutorial.md" '.'
echo "$failed failed; $(($(date +%s) - start)) s"
[ "$failed" -eq 0 ]
