/*
 * mpishmem: growing a lane's dirty set (dirty_set.h).  Only a target's
 * first operation on a lane comes here; everything else is inline.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include "dirty_set.h"
#include "runtime.h"

#define FIRST_SLOTS 16u

void mpishmem_dirty_init(mpishmem_dirty_set_t *d)
{
    d->head = NULL;
    d->table = NULL;
    pthread_mutex_init(&d->grow, NULL);
}

static size_t table_bytes(unsigned slots)
{
    return sizeof(mpishmem_dirty_table_t) + (size_t)slots * sizeof(mpishmem_dirty_entry_t *);
}

static mpishmem_dirty_table_t *table_new(unsigned slots)
{
    mpishmem_dirty_table_t *t = calloc(1, table_bytes(slots));
    if (t == NULL)
        return NULL;
    t->mask = slots - 1;
    mpishmem_tables_add((long)table_bytes(slots));
    return t;
}

static void table_put(mpishmem_dirty_table_t *t, mpishmem_dirty_entry_t *e)
{
    unsigned i = mpishmem_dirty_hash(e->pe) & t->mask;
    while (t->slot[i] != NULL)
        i = (i + 1) & t->mask;
    /* Release: a reader that finds e sees it initialised. */
    __atomic_store_n(&t->slot[i], e, __ATOMIC_RELEASE);
    t->used++;
}

/* Under d->grow: a table with room for one more entry (at most half full,
 * so every probe ends at an empty slot soon). */
static mpishmem_dirty_table_t *room_for_one(mpishmem_dirty_set_t *d)
{
    mpishmem_dirty_table_t *t = d->table;
    if (t != NULL && 2 * (t->used + 1) <= t->mask + 1)
        return t;
    unsigned slots = t == NULL ? FIRST_SLOTS : 2 * (t->mask + 1);
    mpishmem_dirty_table_t *n = table_new(slots);
    if (n == NULL)
        return NULL;
    for (unsigned i = 0; t != NULL && i <= t->mask; i++)
        if (t->slot[i] != NULL)
            table_put(n, t->slot[i]);
    /* Readers may still be probing t: it stays until the set is freed
     * (the tables together are at most twice the last one). */
    n->older = t;
    __atomic_store_n(&d->table, n, __ATOMIC_RELEASE);
    return n;
}

mpishmem_dirty_entry_t *mpishmem_dirty_insert(mpishmem_dirty_set_t *d, int pe)
{
    pthread_mutex_lock(&d->grow);
    mpishmem_dirty_entry_t *e = mpishmem_dirty_find(d, pe); /* another thread's? */
    if (e == NULL) {
        mpishmem_dirty_table_t *t = room_for_one(d);
        e = t != NULL ? calloc(1, sizeof *e) : NULL;
        if (e != NULL) {
            e->pe = pe;
            mpishmem_tables_add((long)sizeof *e);
            table_put(t, e);
        }
    }
    pthread_mutex_unlock(&d->grow);
    return e;
}

size_t mpishmem_dirty_bytes(const mpishmem_dirty_set_t *d)
{
    size_t n = 0;
    for (const mpishmem_dirty_table_t *t = d->table; t != NULL; t = t->older)
        n += table_bytes(t->mask + 1);
    if (d->table != NULL)
        n += (size_t)d->table->used * sizeof(mpishmem_dirty_entry_t);
    return n;
}

void mpishmem_dirty_free(mpishmem_dirty_set_t *d)
{
    mpishmem_dirty_table_t *t = d->table;
    for (unsigned i = 0; t != NULL && i <= t->mask; i++)
        free(t->slot[i]);
    mpishmem_tables_add(-(long)mpishmem_dirty_bytes(d));
    while (t != NULL) {
        mpishmem_dirty_table_t *older = t->older;
        free(t);
        t = older;
    }
    d->table = NULL;
    d->head = NULL;
    pthread_mutex_destroy(&d->grow);
}
