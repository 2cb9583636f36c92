/*
 * mpishmem: the C11 _Generic interface, built from the same type tables as
 * the typed routines.  Included by <shmem.h> in C11 mode only.
 *
 * A routine with a context form is dispatched twice: first on whether the
 * first argument is a shmem_ctx_t, then on the pointer type of the
 * symmetric argument.
 *
 * A type outside the tables selects a null pointer of one of the
 * mpishmem_c11_bad* types below instead of a routine, and a static
 * assertion placed before the selection fails on that, so the call stops
 * with "shmem_ROUTINE: argument ARG has a type this routine does not
 * support".  The bad pointer takes a struct mpishmem_c11_unsupported_type *
 * where the argument goes, so the compiler's next diagnostic names the
 * argument's actual type.  Valid calls see neither.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_GENERIC_H
#define MPISHMEM_GENERIC_H

struct mpishmem_c11_unsupported_type;
/* What an unsupported type selects: for a routine dispatched on its first
 * argument, on the argument after a context, or on the one after a team. */
typedef void (*mpishmem_c11_bad)(struct mpishmem_c11_unsupported_type *, ...);
typedef void (*mpishmem_c11_bad_ctx)(shmem_ctx_t, struct mpishmem_c11_unsupported_type *, ...);
typedef void (*mpishmem_c11_bad_team)(shmem_team_t, struct mpishmem_c11_unsupported_type *, ...);

#define MPISHMEM_ARG0(a, ...) a
#define MPISHMEM_ARG1_(a, b, ...) b
#define MPISHMEM_ARG1(...) MPISHMEM_ARG1_(__VA_ARGS__, 0)

/* One association per table row: "T *: shmem_TYPENAME_OP". */
#define MPISHMEM_C11_CASE(T, N, OP) T *: shmem_##N##_##OP,
#define MPISHMEM_C11_CTX_CASE(T, N, OP) T *: shmem_ctx_##N##_##OP,
/* Read-only arguments may arrive const-qualified. */
#define MPISHMEM_C11_CONST_CASE(T, N, OP) T *: shmem_##N##_##OP, const T *: shmem_##N##_##OP,
#define MPISHMEM_C11_CTX_CONST_CASE(T, N, OP)                                  \
    T *: shmem_ctx_##N##_##OP, const T *: shmem_ctx_##N##_##OP,

/* The routine for x's type, or (BAD)0 for a type outside TABLE. */
#define MPISHMEM_C11_SELECT(TABLE, CASE, OP, BAD, x)                           \
    _Generic((x), TABLE(CASE, OP) default: (BAD)0)

/* SEL (a selection above), preceded by a static assertion that it picked a
 * routine.  ROUTINE and ARG are strings: the generic name and the argument
 * dispatched on.  The struct only carries the assertion (C11 allows one
 * among struct members); it is never evaluated. */
#define MPISHMEM_C11_CHECKED(SEL, ROUTINE, ARG)                                \
    ((void)sizeof(struct {                                                     \
         _Static_assert(_Generic(SEL, mpishmem_c11_bad: 0,                     \
                                 mpishmem_c11_bad_ctx: 0,                      \
                                 mpishmem_c11_bad_team: 0, default: 1),        \
                        ROUTINE ": argument " ARG " has a type this routine "  \
                        "does not support (the next diagnostic names the type)"); \
         char mpishmem_c11_check;                                              \
     }),                                                                       \
     SEL)

/* Routines with a context form: dispatch on arg 0 (ctx or object), then on
 * the object argument. */
#define MPISHMEM_C11_CTX_DISPATCH(TABLE, CASE, CTX_CASE, OP, ARG, ...)         \
    MPISHMEM_C11_CHECKED(                                                      \
        _Generic(MPISHMEM_ARG0(__VA_ARGS__),                                   \
            shmem_ctx_t: MPISHMEM_C11_SELECT(TABLE, CTX_CASE, OP,              \
                                             mpishmem_c11_bad_ctx,             \
                                             MPISHMEM_ARG1(__VA_ARGS__)),      \
            default: MPISHMEM_C11_SELECT(TABLE, CASE, OP, mpishmem_c11_bad,    \
                                         MPISHMEM_ARG0(__VA_ARGS__))),         \
        "shmem_" #OP, ARG)(__VA_ARGS__)

#define MPISHMEM_C11_RMA(OP, ...)                                              \
    MPISHMEM_C11_CTX_DISPATCH(MPISHMEM_RMA_GENERIC_TYPES, MPISHMEM_C11_CASE,   \
                              MPISHMEM_C11_CTX_CASE, OP, "dest", __VA_ARGS__)

#define shmem_put(...) MPISHMEM_C11_RMA(put, __VA_ARGS__)
#define shmem_get(...) MPISHMEM_C11_RMA(get, __VA_ARGS__)
#define shmem_put_nbi(...) MPISHMEM_C11_RMA(put_nbi, __VA_ARGS__)
#define shmem_get_nbi(...) MPISHMEM_C11_RMA(get_nbi, __VA_ARGS__)
#define shmem_p(...) MPISHMEM_C11_RMA(p, __VA_ARGS__)
#define shmem_iput(...) MPISHMEM_C11_RMA(iput, __VA_ARGS__)
#define shmem_iget(...) MPISHMEM_C11_RMA(iget, __VA_ARGS__)
#define shmem_ibput(...) MPISHMEM_C11_RMA(ibput, __VA_ARGS__)
#define shmem_ibget(...) MPISHMEM_C11_RMA(ibget, __VA_ARGS__)
#define shmem_g(...)                                                           \
    MPISHMEM_C11_CTX_DISPATCH(MPISHMEM_RMA_GENERIC_TYPES, MPISHMEM_C11_CONST_CASE, \
                              MPISHMEM_C11_CTX_CONST_CASE, g, "source", __VA_ARGS__)

/* Point-to-point synchronization: dispatch on the ivar pointer. */
#define MPISHMEM_C11_P2P(OP, ivars, ...)                                       \
    MPISHMEM_C11_CHECKED(MPISHMEM_C11_SELECT(MPISHMEM_P2P_GENERIC_TYPES,       \
                                             MPISHMEM_C11_CASE, OP,            \
                                             mpishmem_c11_bad, ivars),         \
                         "shmem_" #OP, "ivars")(ivars, __VA_ARGS__)

/* wait_until and test also take the deprecated short and unsigned short:
 * their typed routines exist, and old code calls the generic names. */
#define MPISHMEM_C11_P2P_ONE_TYPES(X, A)                                       \
    MPISHMEM_P2P_GENERIC_TYPES(X, A) MPISHMEM_P2P_LEGACY_TYPES(X, A)
#define MPISHMEM_C11_P2P_ONE(OP, ivar, ...)                                    \
    MPISHMEM_C11_CHECKED(MPISHMEM_C11_SELECT(MPISHMEM_C11_P2P_ONE_TYPES,       \
                                             MPISHMEM_C11_CASE, OP,            \
                                             mpishmem_c11_bad, ivar),          \
                         "shmem_" #OP, "ivar")(ivar, __VA_ARGS__)

#define shmem_wait_until(ivar, ...) MPISHMEM_C11_P2P_ONE(wait_until, ivar, __VA_ARGS__)
#define shmem_wait_until_all(ivars, ...) MPISHMEM_C11_P2P(wait_until_all, ivars, __VA_ARGS__)
#define shmem_wait_until_any(ivars, ...) MPISHMEM_C11_P2P(wait_until_any, ivars, __VA_ARGS__)
#define shmem_wait_until_some(ivars, ...) MPISHMEM_C11_P2P(wait_until_some, ivars, __VA_ARGS__)
#define shmem_wait_until_all_vector(ivars, ...)                                \
    MPISHMEM_C11_P2P(wait_until_all_vector, ivars, __VA_ARGS__)
#define shmem_wait_until_any_vector(ivars, ...)                                \
    MPISHMEM_C11_P2P(wait_until_any_vector, ivars, __VA_ARGS__)
#define shmem_wait_until_some_vector(ivars, ...)                               \
    MPISHMEM_C11_P2P(wait_until_some_vector, ivars, __VA_ARGS__)
#define shmem_test(ivar, ...) MPISHMEM_C11_P2P_ONE(test, ivar, __VA_ARGS__)
#define shmem_test_all(ivars, ...) MPISHMEM_C11_P2P(test_all, ivars, __VA_ARGS__)
#define shmem_test_any(ivars, ...) MPISHMEM_C11_P2P(test_any, ivars, __VA_ARGS__)
#define shmem_test_some(ivars, ...) MPISHMEM_C11_P2P(test_some, ivars, __VA_ARGS__)
#define shmem_test_all_vector(ivars, ...) MPISHMEM_C11_P2P(test_all_vector, ivars, __VA_ARGS__)
#define shmem_test_any_vector(ivars, ...) MPISHMEM_C11_P2P(test_any_vector, ivars, __VA_ARGS__)
#define shmem_test_some_vector(ivars, ...)                                     \
    MPISHMEM_C11_P2P(test_some_vector, ivars, __VA_ARGS__)

/* Atomics: dispatch on the object pointer (or on `fetch` for _nbi forms). */
#define MPISHMEM_C11_AMO(TABLE, OP, ...)                                       \
    MPISHMEM_C11_CTX_DISPATCH(TABLE, MPISHMEM_C11_CASE, MPISHMEM_C11_CTX_CASE, \
                              atomic_##OP, "dest", __VA_ARGS__)
#define MPISHMEM_C11_AMO_NBI(TABLE, OP, ...)                                   \
    MPISHMEM_C11_CTX_DISPATCH(TABLE, MPISHMEM_C11_CASE, MPISHMEM_C11_CTX_CASE, \
                              atomic_##OP, "fetch", __VA_ARGS__)
#define shmem_atomic_fetch(...)                                                \
    MPISHMEM_C11_CTX_DISPATCH(MPISHMEM_AMO_EXT_GENERIC_TYPES, MPISHMEM_C11_CONST_CASE, \
                              MPISHMEM_C11_CTX_CONST_CASE, atomic_fetch, "source", __VA_ARGS__)
#define shmem_atomic_set(...) MPISHMEM_C11_AMO(MPISHMEM_AMO_EXT_GENERIC_TYPES, set, __VA_ARGS__)
#define shmem_atomic_swap(...) MPISHMEM_C11_AMO(MPISHMEM_AMO_EXT_GENERIC_TYPES, swap, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...)                                            \
    MPISHMEM_C11_AMO_NBI(MPISHMEM_AMO_EXT_GENERIC_TYPES, fetch_nbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...)                                             \
    MPISHMEM_C11_AMO_NBI(MPISHMEM_AMO_EXT_GENERIC_TYPES, swap_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap(...)                                         \
    MPISHMEM_C11_AMO(MPISHMEM_AMO_STD_GENERIC_TYPES, compare_swap, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...)                                            \
    MPISHMEM_C11_AMO(MPISHMEM_AMO_STD_GENERIC_TYPES, fetch_inc, __VA_ARGS__)
#define shmem_atomic_inc(...) MPISHMEM_C11_AMO(MPISHMEM_AMO_STD_GENERIC_TYPES, inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...)                                            \
    MPISHMEM_C11_AMO(MPISHMEM_AMO_STD_GENERIC_TYPES, fetch_add, __VA_ARGS__)
#define shmem_atomic_add(...) MPISHMEM_C11_AMO(MPISHMEM_AMO_STD_GENERIC_TYPES, add, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...)                                     \
    MPISHMEM_C11_AMO_NBI(MPISHMEM_AMO_STD_GENERIC_TYPES, compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...)                                        \
    MPISHMEM_C11_AMO_NBI(MPISHMEM_AMO_STD_GENERIC_TYPES, fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...)                                        \
    MPISHMEM_C11_AMO_NBI(MPISHMEM_AMO_STD_GENERIC_TYPES, fetch_add_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_and(...)                                            \
    MPISHMEM_C11_AMO(MPISHMEM_AMO_BIT_GENERIC_TYPES, fetch_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...)                                             \
    MPISHMEM_C11_AMO(MPISHMEM_AMO_BIT_GENERIC_TYPES, fetch_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...)                                            \
    MPISHMEM_C11_AMO(MPISHMEM_AMO_BIT_GENERIC_TYPES, fetch_xor, __VA_ARGS__)
#define shmem_atomic_and(...) MPISHMEM_C11_AMO(MPISHMEM_AMO_BIT_GENERIC_TYPES, and, __VA_ARGS__)
#define shmem_atomic_or(...) MPISHMEM_C11_AMO(MPISHMEM_AMO_BIT_GENERIC_TYPES, or, __VA_ARGS__)
#define shmem_atomic_xor(...) MPISHMEM_C11_AMO(MPISHMEM_AMO_BIT_GENERIC_TYPES, xor, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...)                                        \
    MPISHMEM_C11_AMO_NBI(MPISHMEM_AMO_BIT_GENERIC_TYPES, fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...)                                         \
    MPISHMEM_C11_AMO_NBI(MPISHMEM_AMO_BIT_GENERIC_TYPES, fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...)                                        \
    MPISHMEM_C11_AMO_NBI(MPISHMEM_AMO_BIT_GENERIC_TYPES, fetch_xor_nbi, __VA_ARGS__)

/* Deprecated generic names (no context forms). */
#define shmem_fetch(source, pe) shmem_atomic_fetch(source, pe)
#define shmem_set(dest, value, pe) shmem_atomic_set(dest, value, pe)
#define shmem_swap(dest, value, pe) shmem_atomic_swap(dest, value, pe)
#define shmem_cswap(dest, cond, value, pe) shmem_atomic_compare_swap(dest, cond, value, pe)
#define shmem_finc(dest, pe) shmem_atomic_fetch_inc(dest, pe)
#define shmem_inc(dest, pe) shmem_atomic_inc(dest, pe)
#define shmem_fadd(dest, value, pe) shmem_atomic_fetch_add(dest, value, pe)
#define shmem_add(dest, value, pe) shmem_atomic_add(dest, value, pe)

/* Signals. */
#define shmem_put_signal(...) MPISHMEM_C11_RMA(put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) MPISHMEM_C11_RMA(put_signal_nbi, __VA_ARGS__)
#define shmem_signal_add(...)                                                  \
    _Generic(MPISHMEM_ARG0(__VA_ARGS__), shmem_ctx_t: shmem_ctx_signal_add,    \
             default: shmem_signal_add)(__VA_ARGS__)
#define shmem_signal_set(...)                                                  \
    _Generic(MPISHMEM_ARG0(__VA_ARGS__), shmem_ctx_t: shmem_ctx_signal_set,    \
             default: shmem_signal_set)(__VA_ARGS__)

/* Team collectives: dispatch on dest, the argument after the team. */
#define MPISHMEM_C11_COLL(TABLE, OP, team, dest, ...)                          \
    MPISHMEM_C11_CHECKED(MPISHMEM_C11_SELECT(TABLE, MPISHMEM_C11_CASE, OP,     \
                                             mpishmem_c11_bad_team, dest),     \
                         "shmem_" #OP, "dest")(team, dest, __VA_ARGS__)

#define shmem_broadcast(team, dest, ...)                                       \
    MPISHMEM_C11_COLL(MPISHMEM_RMA_GENERIC_TYPES, broadcast, team, dest, __VA_ARGS__)
#define shmem_collect(team, dest, ...)                                         \
    MPISHMEM_C11_COLL(MPISHMEM_RMA_GENERIC_TYPES, collect, team, dest, __VA_ARGS__)
#define shmem_fcollect(team, dest, ...)                                        \
    MPISHMEM_C11_COLL(MPISHMEM_RMA_GENERIC_TYPES, fcollect, team, dest, __VA_ARGS__)
#define shmem_alltoall(team, dest, ...)                                        \
    MPISHMEM_C11_COLL(MPISHMEM_RMA_GENERIC_TYPES, alltoall, team, dest, __VA_ARGS__)
#define shmem_alltoalls(team, dest, ...)                                       \
    MPISHMEM_C11_COLL(MPISHMEM_RMA_GENERIC_TYPES, alltoalls, team, dest, __VA_ARGS__)

#define shmem_and_reduce(team, dest, ...)                                      \
    MPISHMEM_C11_COLL(MPISHMEM_REDUCE_BIT_GENERIC_TYPES, and_reduce, team, dest, __VA_ARGS__)
#define shmem_or_reduce(team, dest, ...)                                       \
    MPISHMEM_C11_COLL(MPISHMEM_REDUCE_BIT_GENERIC_TYPES, or_reduce, team, dest, __VA_ARGS__)
#define shmem_xor_reduce(team, dest, ...)                                      \
    MPISHMEM_C11_COLL(MPISHMEM_REDUCE_BIT_GENERIC_TYPES, xor_reduce, team, dest, __VA_ARGS__)
#define shmem_max_reduce(team, dest, ...)                                      \
    MPISHMEM_C11_COLL(MPISHMEM_REDUCE_ARITH_GENERIC_TYPES, max_reduce, team, dest, __VA_ARGS__)
#define shmem_min_reduce(team, dest, ...)                                      \
    MPISHMEM_C11_COLL(MPISHMEM_REDUCE_ARITH_GENERIC_TYPES, min_reduce, team, dest, __VA_ARGS__)
#define shmem_sum_reduce(team, dest, ...)                                      \
    MPISHMEM_C11_COLL(MPISHMEM_REDUCE_SUM_GENERIC_TYPES, sum_reduce, team, dest, __VA_ARGS__)
#define shmem_prod_reduce(team, dest, ...)                                     \
    MPISHMEM_C11_COLL(MPISHMEM_REDUCE_SUM_GENERIC_TYPES, prod_reduce, team, dest, __VA_ARGS__)
#define shmem_sum_inscan(team, dest, ...)                                      \
    MPISHMEM_C11_COLL(MPISHMEM_REDUCE_SUM_GENERIC_TYPES, sum_inscan, team, dest, __VA_ARGS__)
#define shmem_sum_exscan(team, dest, ...)                                      \
    MPISHMEM_C11_COLL(MPISHMEM_REDUCE_SUM_GENERIC_TYPES, sum_exscan, team, dest, __VA_ARGS__)

/* shmem_sync(team) is shmem_team_sync; with four arguments it is the
 * deprecated active-set function, reached as (shmem_sync) so this macro
 * does not expand again.  Other argument counts name a function taking
 * no arguments, so the call fails to compile with that name. */
void mpishmem_c11_shmem_sync_takes_1_or_4_arguments(void);
#define MPISHMEM_SYNC_PICK(a, b, c, d, NAME, ...) NAME
#define shmem_sync(...)                                                        \
    MPISHMEM_SYNC_PICK(__VA_ARGS__, (shmem_sync),                              \
                       mpishmem_c11_shmem_sync_takes_1_or_4_arguments,         \
                       mpishmem_c11_shmem_sync_takes_1_or_4_arguments,         \
                       shmem_team_sync, 0)(__VA_ARGS__)

#endif
