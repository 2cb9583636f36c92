#!/bin/sh
# C11 generics given an argument of a type the routine does not support must
# fail to compile with a message naming the routine and the argument (issue
# 20), and the compiler must name the actual type; correct calls compile
# with no warnings.  Runs with meson's compiler and with clang if present.
#   c11_generic_misuse.sh   (CC, MESON_SOURCE_ROOT from meson)
: "${CC:?}" "${MESON_SOURCE_ROOT:?}"
inc=$MESON_SOURCE_ROOT/include
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
failed=0
total=0

report()
{
    total=$((total + 1))
    if [ -n "$why" ]; then
        failed=$((failed + 1))
        echo "FAIL: $1: $why"
        echo "---- compiler output"; grep -v -e 'expanded from' -e 'in expansion of' "$out/err" | head -n 20; echo "----"
    else
        echo "ok:   $1"
    fi
}

prelude='#include <shmem.h>
struct s { int x; };
void f(shmem_ctx_t c, shmem_team_t t, short *sv, int *iv, long *l,
       float *fl, double *d, struct s *p, size_t *st, const long *cl);
void f(shmem_ctx_t c, shmem_team_t t, short *sv, int *iv, long *l,
       float *fl, double *d, struct s *p, size_t *st, const long *cl)
{
    (void)c; (void)t; (void)sv; (void)iv; (void)l; (void)fl; (void)d; (void)p; (void)st; (void)cl;'

# fails COMPILER NAME MESSAGE TYPE CODE: CODE must not compile; the output
# must hold MESSAGE (routine and argument) and TYPE (the argument's type).
fails()
{
    cc=$1 name=$2 msg=$3 type=$4 code=$5
    printf '%s\n    %s;\n}\n' "$prelude" "$code" >"$out/bad.c"
    why=
    $cc -std=c11 -I"$inc" -c "$out/bad.c" -o "$out/bad.o" >"$out/err" 2>&1 && why="compiled"
    grep -F -q -e "$msg" "$out/err" || why="${why:+$why; }'$msg' not in the compiler's message"
    grep -F -q -e "$type" "$out/err" || why="${why:+$why; }the type '$type' not named"
    grep -q 'too many arguments' "$out/err" && why="${why:+$why; }'too many arguments' in the message"
    report "$cc: $name"
}

compilers=$CC
command -v clang >/dev/null 2>&1 && compilers="$compilers
clang"
nl='
'
IFS=$nl
for cc in $compilers; do
    unset IFS
    # Correct calls of every kind of dispatch compile cleanly, pedantic too.
    for std in c11 c17; do
        printf '%s\n%s\n}\n' "$prelude" '
    long v = shmem_g(cl, 0) + shmem_g(c, l, 0);
    shmem_put(l, l, 1, 0); shmem_put(c, d, d, 1, 0); shmem_p(iv, 1, 0);
    shmem_iget(c, sv, sv, 1, 1, 1, 0);
    shmem_wait_until(sv, SHMEM_CMP_EQ, 0);
    shmem_test_all(iv, 1, NULL, SHMEM_CMP_EQ, 0);
    v += shmem_atomic_fetch_add(l, 1, 0) + shmem_atomic_fetch(c, cl, 0);
    shmem_atomic_fetch_add_nbi(l, l, 1, 0); shmem_atomic_fetch_and_nbi(c, st, st, 1, 0);
    shmem_atomic_set(fl, 1.0f, 0); shmem_fadd(iv, 1, 0); shmem_atomic_or(st, 1, 0);
    shmem_put_signal(l, l, 1, (uint64_t *)st, 1, SHMEM_SIGNAL_SET, 0);
    shmem_sum_reduce(t, d, d, 1); shmem_broadcast(t, l, l, 1, 0); shmem_sync(t);
    (void)v;' >"$out/ok.c"
        why=
        $cc -std=$std -Wall -Wextra -pedantic -Werror -I"$inc" -c "$out/ok.c" -o "$out/ok.o" \
            >"$out/err" 2>&1 || why="does not compile cleanly"
        report "$cc -std=$std: correct generic calls compile with no warnings"
    done

    fails "$cc" "shmem_test_all on short *" \
        "shmem_test_all: argument ivars has a type this routine does not support" "short" \
        "shmem_test_all(sv, 1, NULL, SHMEM_CMP_EQ, 0)"
    fails "$cc" "shmem_put on a struct pointer" \
        "shmem_put: argument dest has a type this routine does not support" "struct s *" \
        "shmem_put(p, p, 1, 0)"
    fails "$cc" "shmem_put with a context on a struct pointer" \
        "shmem_put: argument dest has a type this routine does not support" "struct s *" \
        "shmem_put(c, p, p, 1, 0)"
    fails "$cc" "shmem_atomic_fetch_add on float *" \
        "shmem_atomic_fetch_add: argument dest has a type this routine does not support" "float *" \
        "(void)shmem_atomic_fetch_add(fl, 1, 0)"
    fails "$cc" "shmem_atomic_fetch_add_nbi on float *" \
        "shmem_atomic_fetch_add_nbi: argument fetch has a type this routine does not support" "float *" \
        "shmem_atomic_fetch_add_nbi(fl, fl, 1, 0)"
    # shmem_wait_until takes the deprecated short (issue 14), not double;
    # shmem_wait_until_all never took short.
    fails "$cc" "shmem_wait_until on double *" \
        "shmem_wait_until: argument ivar has a type this routine does not support" "double *" \
        "shmem_wait_until(d, SHMEM_CMP_EQ, 0)"
    fails "$cc" "shmem_wait_until_all on short *" \
        "shmem_wait_until_all: argument ivars has a type this routine does not support" "short" \
        "shmem_wait_until_all(sv, 1, NULL, SHMEM_CMP_EQ, 0)"
    fails "$cc" "shmem_and_reduce on double *" \
        "shmem_and_reduce: argument dest has a type this routine does not support" "double *" \
        "shmem_and_reduce(t, d, d, 1)"
    IFS=$nl
done
unset IFS

echo "$failed of $total checks failed"
[ "$failed" -eq 0 ]
