/*
 * sync tests: one table of operations per point-to-point type, generated
 * from <mpishmem/type_tables.h>, so each test is written once in plain C
 * and still calls every typed routine.  Values travel as long and are
 * converted to the element type; tests use only small positive values,
 * which every type represents exactly.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef SYNC_P2P_OPS_H
#define SYNC_P2P_OPS_H

#include <stddef.h>
#include <stdint.h>
#include <shmem.h>

/* Longest array the operations accept (element arrays, global arrays). */
#define P2P_MAXN 64

typedef struct {
    const char *name;
    size_t size;
    void *glob; /* a static array of P2P_MAXN elements: symmetric global data */
    void (*set)(void *a, size_t i, long v);
    long (*get)(const void *a, size_t i);
    /* Stores a value with the top bit set in *scratch and checks through
     * shmem_TYPE_test that comparisons use the full width and signedness. */
    int (*width_ok)(void *scratch);
    void (*p)(void *a, size_t i, long v, int pe);
    void (*put)(void *a, const long *v, size_t n, int pe);
    void (*wait_until)(void *a, size_t i, int cmp, long v);
    int (*test)(void *a, size_t i, int cmp, long v);
    /* Set and vector forms: NULL for the deprecated short types. */
    void (*wait_all)(void *a, size_t n, const int *st, int cmp, long v);
    size_t (*wait_any)(void *a, size_t n, const int *st, int cmp, long v);
    size_t (*wait_some)(void *a, size_t n, size_t *idx, const int *st, int cmp, long v);
    void (*wait_all_v)(void *a, size_t n, const int *st, int cmp, const long *v);
    size_t (*wait_any_v)(void *a, size_t n, const int *st, int cmp, const long *v);
    size_t (*wait_some_v)(void *a, size_t n, size_t *idx, const int *st, int cmp,
                          const long *v);
    int (*test_all)(void *a, size_t n, const int *st, int cmp, long v);
    size_t (*test_any)(void *a, size_t n, const int *st, int cmp, long v);
    size_t (*test_some)(void *a, size_t n, size_t *idx, const int *st, int cmp, long v);
    int (*test_all_v)(void *a, size_t n, const int *st, int cmp, const long *v);
    size_t (*test_any_v)(void *a, size_t n, const int *st, int cmp, const long *v);
    size_t (*test_some_v)(void *a, size_t n, size_t *idx, const int *st, int cmp,
                          const long *v);
} p2p_ops_t;

/* Every type of MPISHMEM_P2P_TYPES, then the deprecated short types. */
extern const p2p_ops_t p2p_ops[];
extern const size_t p2p_nops;
extern const p2p_ops_t p2p_legacy_ops[];
extern const size_t p2p_legacy_nops;

/* The six comparison operators, and their names for messages. */
extern const int p2p_cmps[6];
const char *p2p_cmp_name(int cmp);

/* Ring neighbours, and a handshake: the calling PE tells its left
 * neighbour (which sends to it) that it is ready for round r, then waits
 * until its right neighbour (to which it sends) is ready.  Every PE must
 * call it the same number of times. */
int p2p_left(void);
int p2p_right(void);
void p2p_handshake(void);

/* A remote round's values for operator cmp at element i: the waiter starts
 * at init (not satisfying), the sender delivers deliver (satisfying). */
long p2p_init(int cmp, size_t i);
long p2p_cmpval(int cmp, size_t i);
long p2p_deliver(int cmp, size_t i);

/* Legacy, signal and C11 generic tests (p2p_legacy.c). */
#include <check.h>
TCase *p2p_legacy_tcase(void);

#endif
