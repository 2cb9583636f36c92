#!/bin/sh
# Mutation check of the ordering and completion code (docs/checks.md).
#   sh test/mutation.sh [mpich|openmpi]     (default mpich; CC=mpicc.MPI)
#   MUTANTS=fence_noop,bounce_noflush sh test/mutation.sh   (only those)
#
# Copies the source tree to a scratch directory, configures it once, and
# for each mutant below: restores the pristine file, applies the mutant,
# rebuilds the one test program (incrementally: one file recompiled, the
# library and the test relinked) and runs the cases of it that must kill
# the mutant, at 2 PEs with MPISHMEM_SHM=0.  Prints KILLED or SURVIVED per
# mutant.  Exits non-zero when a mutant survives, when the unmutated build
# fails the cases, or when a mutant's pattern no longer matches the source
# exactly once (so the list follows the code).  The real tree is never
# modified.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
mpi=${1:-mpich}
cc=${CC:-mpicc.$mpi}
start=$(date +%s)

# The mutants: NAME|FILE|FUNCTION|EDIT|OLD|NEW|CASES
#   EDIT entry:   insert OLD as the first statement of FUNCTION's body;
#   EDIT replace: replace OLD, which must occur exactly once in FUNCTION's
#                 body, by NEW.
#   CASES: the rma_delayed cases (test/rma/test_delayed.c) that kill it.
# FUNCTION is found by its definition (name, parameter list, then "{").
mutants='
fence_noop|lib/ordering.c|shmem_fence|entry|return;||fence
ctx_fence_noop|lib/ordering.c|shmem_ctx_fence|entry|return;||ctx_fence
fence_slow_nocomplete|lib/ordering.c|fence_slow|replace|mpishmem_complete_pending(&ctx->pending, ctx->lane);|;|fence,ctx_fence
quiet_noop|lib/ordering.c|shmem_quiet|entry|return;||quiet
quiet_default_nocomplete|lib/ordering.c|quiet_default_slow|replace|mpishmem_ctx_complete(SHMEM_CTX_DEFAULT);|;|quiet
ctx_complete_noflush|mpi_backend/data_path/lane_ctx.c|mpishmem_ctx_complete|replace|mpishmem_complete_pending(&ctx->pending, ctx->lane);|;|quiet,ctx_quiet
pe_quiet_noop|lib/ordering.c|shmem_ctx_pe_quiet|entry|return;||pe_quiet
ctx_quiet_noop_created|lib/ordering.c|shmem_ctx_quiet|entry|if (ctx != SHMEM_CTX_DEFAULT) return;||ctx_quiet
barrier_noquiet|lib/ordering.c|shmem_barrier_all|replace|mpishmem_complete_all();|;|barrier
put_signal_noflush|lib/signal.c|put_signal|replace|mpishmem_segment_flush_pe(&ctx->pending, s, ctx->lane, wpe);|;|put_signal
signal_fence_only|lib/signal.c|put_signal|replace|if (mpishmem_segment_peer(s, wpe) == NULL)|if (0)|put_signal
flush_listed_noflush|mpi_backend/data_path/completion.c|flush_listed|replace|flush_target(s, l, e->pe);|;|barrier
flush_pe_noflush|mpi_backend/data_path/completion.c|flush_pe_lane|replace|flush_target(s, l, pe);|;|pe_quiet,get
bounce_noflush|mpi_backend/data_path/rma_mpi.c|bounce_recycle|replace|MPISHMEM_MPI(MPI_Win_flush_local(bounce.t[i].rank, bounce.t[i].win));|;|bounce
get_noflush|mpi_backend/data_path/rma_path.h|mpishmem_mpi_get_route|replace|mpishmem_segment_flush_pe(&ctx->pending, s, ctx->lane, pe);|;|get
dirty_unmarked|mpi_backend/memory/segment.h|mpishmem_lane_mark|replace|mpishmem_dirty_mark(&l->dirty, pe) != 0|0|barrier,get
'

work=$(mktemp -d "${TMPDIR:-/tmp}/mpishmem-mutation.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
src=$work/src
build=$work/build
mkdir -p "$src" "$work/orig"

# The tree as git sees it (tracked and untracked, not ignored), else all.
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$top" && git ls-files -z -co --exclude-standard |
        tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
        (cd "$src" && tar -xf -) || exit 1
else
    cp -r "$top/." "$src" && rm -rf "$src"/build*
fi

# apply FILE FUNCTION EDIT OLD NEW: edit FILE in place; exit 2 when the
# function or OLD is not found exactly once.
apply()
{
    python3 - "$@" <<'EOF'
import re, sys
path, func, edit, old, new = sys.argv[1:6]
text = open(path).read()

def close(s, i, o, c):
    """Index just past the bracket matching s[i] == o."""
    depth = 0
    while i < len(s):
        if s[i] == o:
            depth += 1
        elif s[i] == c:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1

bodies = []
for m in re.finditer(r'\b' + re.escape(func) + r'\s*\(', text):
    line = text.rfind('\n', 0, m.start()) + 1
    if text[line:m.start()].lstrip().startswith(('#', '//', '*', '/*')):
        continue
    end = close(text, m.end() - 1, '(', ')')
    if end < 0:
        continue
    rest = re.match(r'(\s|__attribute__\s*\(\(.*?\)\))*\{', text[end:], re.S)
    if rest:
        b = end + rest.end() - 1
        bodies.append((b, close(text, b, '{', '}')))
if len(bodies) != 1:
    sys.exit("%s: %d definitions of %s (want 1)" % (path, len(bodies), func))
b, e = bodies[0]
body = text[b:e]
if edit == 'entry':
    body = '{ ' + old + ' /* MUTANT */' + body[1:]
else:
    n = body.count(old)
    if n != 1:
        sys.exit("%s: %s: %r occurs %d times (want 1)" % (path, func, old, n))
    body = body.replace(old, new + ' /* MUTANT */')
open(path, 'w').write(text[:b] + body + text[e:])
EOF
    [ $? -eq 0 ] || return 2
}

# run CASES: the cases at 2 PEs over MPI; output in $work/run.log.
run_cases()
{
    MPISHMEM_SHM=0 MPISHMEM_CTX_LANES=2 MPISHMEM_TEST_TIMEOUT=45 \
        timeout 60 sh "$build/test/launch.sh" 2 "$build/test/rma_delayed" "$1" \
        >"$work/run.log" 2>&1
}

echo "=== mutation check ($mpi): configure and build in $work"
if ! CC="$cc" meson setup "$build" "$src" -Dbenchmarks=false -Dfortran=disabled \
        >"$work/setup.log" 2>&1 ||
   ! ninja -C "$build" test/rma_delayed >"$work/build.log" 2>&1; then
    tail -30 "$work/setup.log" "$work/build.log" 2>/dev/null
    echo "=== mutation check ($mpi): BUILD FAILED"
    exit 1
fi
all=$(printf '%s\n' "$mutants" | sed -n 's/.*|//p' | tr ',' '\n' | sort -u | paste -sd, -)
if ! run_cases "$all"; then
    cat "$work/run.log"
    echo "=== mutation check ($mpi): the unmutated library fails rma_delayed ($all)"
    exit 1
fi
echo "unmutated: passes $all ($(($(date +%s) - start)) s)"

killed=0 survived=0 broken=0
last=
# Read from a file: the loop body runs MPI jobs, which must not eat the list.
printf '%s\n' "$mutants" | grep '|' >"$work/mutants"
while IFS='|' read -r name file func edit old new cases; do
    case ",${MUTANTS:-$name}," in *",$name,"*) ;; *) continue ;; esac
    t0=$(date +%s)
    if [ -n "$last" ]; then
        cp -p "$work/orig/last" "$src/$last"
        touch "$src/$last"
    fi
    cp -p "$src/$file" "$work/orig/last"
    last=$file
    if ! apply "$src/$file" "$func" "$edit" "$old" "$new"; then
        echo "BROKEN    $name: the pattern no longer matches $file (update test/mutation.sh)"
        broken=$((broken + 1))
        continue
    fi
    if ! ninja -C "$build" test/rma_delayed >"$work/build.log" 2>&1; then
        tail -20 "$work/build.log"
        echo "BROKEN    $name: the mutant does not compile"
        broken=$((broken + 1))
        continue
    fi
    if run_cases "$cases" </dev/null; then
        echo "SURVIVED  $name ($file: $func) by $cases"
        survived=$((survived + 1))
    else
        why=$(grep -m1 -E 'PE [0-9]+: ' "$work/run.log" || echo "exit status non-zero or timeout")
        echo "KILLED    $name by $cases ($(($(date +%s) - t0)) s): $why"
        killed=$((killed + 1))
    fi
done <"$work/mutants"

echo "=== mutation check ($mpi): $killed killed, $survived survived, $broken broken," \
     "$(($(date +%s) - start)) s"
[ "$survived" -eq 0 ] && [ "$broken" -eq 0 ]
