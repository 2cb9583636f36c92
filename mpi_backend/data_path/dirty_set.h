/*
 * mpishmem: the targets one lane has MPI operations in flight to, in
 * memory and time that grow with the targets touched, not with the job.
 *
 * Each target this lane ever reached through MPI has one entry, found by
 * PE number in an open-addressing hash table that only grows (lookups take
 * no lock; inserting a new target takes the set's mutex, once per target).
 * An entry's `state` has two bits:
 *   DIRTY   an operation to the target may be incomplete;
 *   LISTED  the entry is on the set's dirty stack (or is being pushed).
 * The issuer sets both with one exchange after its MPI call returned, and
 * pushes the entry if LISTED was clear; so a target is on the stack at
 * most once, and a flush pass pops the whole stack (one exchange) and
 * visits exactly the targets touched since the last pass: O(k) for k
 * targets, whatever the job size.  The pass clears both bits with one
 * exchange and flushes the target if DIRTY was set; a flush of one target
 * (pe_quiet, a get) clears only DIRTY and leaves the entry listed.
 *
 * Why an exchange rather than the plain store it replaces: the issuer must
 * learn atomically whether the entry is listed; and because the flusher's
 * clearing exchange reads the issuer's value (or a later one), its flush
 * is ordered after the issuer's MPI call (docs/contexts.md).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_DIRTY_SET_H
#define MPISHMEM_DIRTY_SET_H

#include <pthread.h>
#include <stddef.h>

#define MPISHMEM_DIRTY 1u
#define MPISHMEM_LISTED 2u

typedef struct mpishmem_dirty_entry {
    int pe;
    unsigned state;                    /* MPISHMEM_DIRTY | MPISHMEM_LISTED */
    struct mpishmem_dirty_entry *next; /* on the dirty stack */
} mpishmem_dirty_entry_t;

typedef struct mpishmem_dirty_table {
    unsigned mask;                     /* slots - 1, a power of two minus one */
    unsigned used;
    struct mpishmem_dirty_table *older; /* replaced tables, freed with the set */
    mpishmem_dirty_entry_t *slot[];    /* NULL: empty */
} mpishmem_dirty_table_t;

typedef struct mpishmem_dirty_set {
    mpishmem_dirty_entry_t *head;      /* the dirty stack */
    mpishmem_dirty_table_t *table;     /* NULL until the first target */
    pthread_mutex_t grow;              /* inserting a target */
} mpishmem_dirty_set_t;

/* An empty set (no allocation until a target is touched). */
void mpishmem_dirty_init(mpishmem_dirty_set_t *d);
/* Frees every entry and table; no operation may be in flight. */
void mpishmem_dirty_free(mpishmem_dirty_set_t *d);

static inline unsigned mpishmem_dirty_hash(int pe)
{
    return (unsigned)pe * 2654435761u; /* Knuth's multiplicative hash */
}

/* The entry of pe, or NULL if pe was never touched. Lock-free. */
static inline mpishmem_dirty_entry_t *mpishmem_dirty_find(const mpishmem_dirty_set_t *d, int pe)
{
    const mpishmem_dirty_table_t *t = __atomic_load_n(&d->table, __ATOMIC_ACQUIRE);
    if (t == NULL)
        return NULL;
    for (unsigned i = mpishmem_dirty_hash(pe) & t->mask;; i = (i + 1) & t->mask) {
        mpishmem_dirty_entry_t *e = __atomic_load_n(&t->slot[i], __ATOMIC_ACQUIRE);
        if (e == NULL || e->pe == pe)
            return e;
    }
}

/* The entry of pe, made on first use.  NULL only when memory runs out. */
mpishmem_dirty_entry_t *mpishmem_dirty_insert(mpishmem_dirty_set_t *d, int pe);

/* Record an operation to pe whose MPI call has returned. Returns 0, or -1
 * when memory for a new target runs out. */
static inline int mpishmem_dirty_mark(mpishmem_dirty_set_t *d, int pe)
{
    mpishmem_dirty_entry_t *e = mpishmem_dirty_find(d, pe);
    if (__builtin_expect(e == NULL, 0) && (e = mpishmem_dirty_insert(d, pe)) == NULL)
        return -1;
    unsigned old = __atomic_exchange_n(&e->state, MPISHMEM_DIRTY | MPISHMEM_LISTED,
                                       __ATOMIC_ACQ_REL);
    if (!(old & MPISHMEM_LISTED)) {
        mpishmem_dirty_entry_t *h = __atomic_load_n(&d->head, __ATOMIC_RELAXED);
        do
            __atomic_store_n(&e->next, h, __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(&d->head, &h, e, 1, __ATOMIC_RELEASE,
                                            __ATOMIC_RELAXED));
    }
    return 0;
}

/* Whether any target may be dirty (one load). */
static inline int mpishmem_dirty_any(const mpishmem_dirty_set_t *d)
{
    return __atomic_load_n(&d->head, __ATOMIC_ACQUIRE) != NULL;
}

/* The flusher's side; the caller serialises flushers (its lane lock).
 * Takes the whole stack: the caller then calls mpishmem_dirty_take_next
 * for each entry, which clears it and says whether to flush its PE. */
static inline mpishmem_dirty_entry_t *mpishmem_dirty_take_all(mpishmem_dirty_set_t *d)
{
    return __atomic_exchange_n(&d->head, NULL, __ATOMIC_ACQUIRE);
}

/* Clears *e (both bits) and returns whether it was dirty; *next gets the
 * entry after it, read before the clear (an issuer may push e again right
 * after, rewriting e->next). */
static inline int mpishmem_dirty_clear(mpishmem_dirty_entry_t *e, mpishmem_dirty_entry_t **next)
{
    *next = __atomic_load_n(&e->next, __ATOMIC_RELAXED);
    return (__atomic_exchange_n(&e->state, 0, __ATOMIC_ACQ_REL) & MPISHMEM_DIRTY) != 0;
}

/* One target, leaving it listed: whether pe was dirty (now clear). */
static inline int mpishmem_dirty_clear_pe(mpishmem_dirty_set_t *d, int pe)
{
    mpishmem_dirty_entry_t *e = mpishmem_dirty_find(d, pe);
    if (e == NULL)
        return 0;
    unsigned old = __atomic_load_n(&e->state, __ATOMIC_RELAXED);
    while (old & MPISHMEM_DIRTY)
        if (__atomic_compare_exchange_n(&e->state, &old, old & ~MPISHMEM_DIRTY, 1,
                                        __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
            return 1;
    return 0;
}

/* Bytes this set holds (entries and tables), for mpishmem_table_bytes. */
size_t mpishmem_dirty_bytes(const mpishmem_dirty_set_t *d);

#endif
