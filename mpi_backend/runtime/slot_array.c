/*
 * mpishmem: arrays of handle slots (slot_array.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>
#include <sys/mman.h>
#include "slot_array.h"

void *mpishmem_slot_take(mpishmem_slot_array_t *a)
{
    if (a->base == NULL) {
        void *m = mmap(NULL, a->count * a->elem, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED)
            return NULL;
        a->base = m;
    }
    if (a->used < a->count)
        return a->base + a->used++ * a->elem; /* fresh mappings are zero */
    for (size_t i = 0; i < a->count; i++) {
        char *slot = a->base + a->cursor * a->elem;
        a->cursor = (a->cursor + 1) % a->count;
        if (!a->in_use(slot)) {
            memset(slot, 0, a->elem);
            return slot;
        }
    }
    return NULL;
}
