/*
 * What each PE contributes to a reduction, and how the result is folded,
 * shared by the team and the active-set reduction tests.
 *
 * Contributions are small integers (complex ones with an imaginary part),
 * chosen so that signed results never overflow and real results are exact;
 * unsigned ones may wrap, which C defines.  The expected result is folded
 * in the type itself with the C operator, in PE order.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_TEST_COLL_VALUES_H
#define MPISHMEM_TEST_COLL_VALUES_H

#include "coll_common.h"

/* Contribution of world PE w to element i, per operation. */
#define VAL_sum(T, w, i) COLL_VAL2(T, ((w) * 5 + (i) * 3) % 9 - 3, ((w) + (i)) % 4 - 1)
#define VAL_prod(T, w, i)                                                                  \
    COLL_VAL2(T, ((w) + (i)) % 4 == 0 ? 2 : ((w) + (i)) % 5 == 3 ? -1 : 1,                \
              ((w) + 2 * (i)) % 3 == 0)
#define VAL_max(T, w, i) ((T)(((w) * 7 + (i) * 5) % 13 - 6))
#define VAL_min(T, w, i) VAL_max(T, w, i)
#define VAL_and(T, w, i) ((T) ~(1ull << (((w) * 3 + (i)) % (8 * sizeof(T)))))
#define VAL_or(T, w, i) ((T)(1ull << (((w) * 5 + (i)) % (8 * sizeof(T)))))
#define VAL_xor(T, w, i) ((T)(0x9e3779b97f4a7c15ull * (unsigned long long)((w) * 8 + (i) + 1)))

#define FOLD_sum(a, b) ((a) + (b))
#define FOLD_prod(a, b) ((a) * (b))
#define FOLD_max(a, b) ((b) > (a) ? (b) : (a))
#define FOLD_min(a, b) ((b) < (a) ? (b) : (a))
#define FOLD_and(a, b) ((a) & (b))
#define FOLD_or(a, b) ((a) | (b))
#define FOLD_xor(a, b) ((a) ^ (b))

#endif
