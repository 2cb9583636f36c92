/*
 * mpishmem Fortran: ordering, locks and the cache routines.
 *
 * Locks.  The C lock is a 64-bit word (an MCS queue whose tail lives in
 * the upper half on PE 0), but the 1.0 interface declares a Fortran lock
 * as a default INTEGER: 4 bytes.  So a Fortran lock names a C lock word
 * in a table in this library's .bss (global data, symmetric like every
 * global), chosen by the lock's offset in its symmetric segment, which is
 * the same on every PE.  The Fortran variable itself is not written.  Two
 * locks whose offsets are NSLOTS*4 bytes apart share a word: they still
 * exclude correctly, but one PE cannot hold both (detected, not a hang).
 *
 * Cache routines.  The 1.0 cache-management routines controlled the
 * caches of non-coherent Cray systems.  Every machine this library runs on
 * keeps caches coherent, and the library orders memory itself at fences,
 * quiets and barriers, so they have nothing to do: they check that the
 * library is running and return.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "fortran.h"
#include "../coll/coll.h"

MPISHMEM_F(void, shmem_fence, (void)) { shmem_fence(); }
MPISHMEM_F(void, shmem_quiet, (void)) { shmem_quiet(); }

#define NSLOTS 4096
static long lock_words[NSLOTS];           /* zero, as a free C lock must be */
static const void *lock_held_by[NSLOTS];  /* this PE's Fortran lock holding each word */

static long *lock_word(const char *routine, const void *lock)
{
    mpishmem_check_running(routine);
    long long off = mpishmem_coll_symmetric_offset(lock);
    if (off < 0)
        mpishmem_fatal(routine, "lock %p is not a symmetric variable", lock);
    size_t slot = (size_t)(off / (long long)sizeof(mpishmem_fint)) % NSLOTS;
    const void *held = lock_held_by[slot];
    if (held != NULL && held != lock)
        mpishmem_fatal(routine, "this PE holds the lock at %p, which shares its word with the "
                       "lock at %p (their offsets differ by a multiple of %zu bytes): place "
                       "the locks elsewhere", held, lock, (size_t)NSLOTS * sizeof(mpishmem_fint));
    return &lock_words[slot];
}

static size_t slot_of(long *w) { return (size_t)(w - lock_words); }

MPISHMEM_F(void, shmem_set_lock, (mpishmem_fint *lock))
{
    long *w = lock_word("SHMEM_SET_LOCK", lock);
    shmem_set_lock(w);
    lock_held_by[slot_of(w)] = lock;
}

MPISHMEM_F(mpishmem_fint, shmem_test_lock, (mpishmem_fint *lock))
{
    long *w = lock_word("SHMEM_TEST_LOCK", lock);
    int busy = shmem_test_lock(w);
    if (!busy)
        lock_held_by[slot_of(w)] = lock;
    return busy;
}

MPISHMEM_F(void, shmem_clear_lock, (mpishmem_fint *lock))
{
    long *w = lock_word("SHMEM_CLEAR_LOCK", lock);
    lock_held_by[slot_of(w)] = NULL;
    shmem_clear_lock(w);
}

/* ---- Cache management: nothing to do on coherent memory (see above). */
MPISHMEM_F(void, shmem_set_cache_inv, (void)) { mpishmem_check_running("SHMEM_SET_CACHE_INV"); }
MPISHMEM_F(void, shmem_clear_cache_inv, (void))
{
    mpishmem_check_running("SHMEM_CLEAR_CACHE_INV");
}
MPISHMEM_F(void, shmem_udcflush, (void)) { mpishmem_check_running("SHMEM_UDCFLUSH"); }
MPISHMEM_F(void, shmem_set_cache_line_inv, (void *target))
{
    (void)target;
    mpishmem_check_running("SHMEM_SET_CACHE_LINE_INV");
}
MPISHMEM_F(void, shmem_clear_cache_line_inv, (void *target))
{
    (void)target;
    mpishmem_check_running("SHMEM_CLEAR_CACHE_LINE_INV");
}
MPISHMEM_F(void, shmem_udcflush_line, (void *target))
{
    (void)target;
    mpishmem_check_running("SHMEM_UDCFLUSH_LINE");
}
