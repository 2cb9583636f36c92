/*
 * mpishmem: is a local buffer device memory?  (gpu_path.h)
 *
 * Symmetric memory answers from its segment.  Other memory asks the CUDA
 * runtime's pointer attributes once, and the answer is kept per thread
 * for the buffer's range (host memory: its whole pages), so a program that
 * reuses its buffers asks once per buffer.  An answer stays right while
 * the range stays mapped as it was: CUDA's unified addressing keeps device
 * addresses in ranges of their own, so freed host pages never come back as
 * device memory.  Device segments coming or going clear every thread's
 * answers (a generation number).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <string.h>
#include "cuda_rt.h"
#include "gpu_path.h"

int mpishmem_gpu_on;
int mpishmem_gpu_mpi_aware;
unsigned mpishmem_gpu_kind_generation = 1;

#define SLOTS 16
#define PAGE ((uintptr_t)4096)

typedef struct {
    uintptr_t lo, hi; /* [lo, hi); hi == 0: empty */
    int dev;
} kind_range_t;

static __thread kind_range_t cache[SLOTS];
static __thread unsigned cache_generation, last_hit, next_slot;

static int lookup(uintptr_t a, uintptr_t e, int *dev)
{
    for (unsigned k = 0; k < SLOTS; k++) {
        unsigned i = (last_hit + k) % SLOTS;
        if (a >= cache[i].lo && e <= cache[i].hi) {
            last_hit = i;
            *dev = cache[i].dev;
            return 1;
        }
    }
    return 0;
}

int mpishmem_gpu_local_dev(const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p, e = a + (n ? n : 1);
    unsigned gen = __atomic_load_n(&mpishmem_gpu_kind_generation, __ATOMIC_ACQUIRE);
    int dev;
    if (MPISHMEM_LIKELY(gen == cache_generation)) {
        if (lookup(a, e, &dev))
            return dev;
    } else {
        memset(cache, 0, sizeof cache);
        cache_generation = gen;
    }
    uintptr_t lo, hi;
    mpishmem_segment_t *s = mpishmem_segment_find(p);
    if (s != NULL) {
        dev = s->gpu ? s->gpu->gpu : -1;
        lo = (uintptr_t)s->base;
        hi = lo + s->size;
    } else {
        dev = mpishmem_cuda_device_of(p);
        lo = dev < 0 ? a & ~(PAGE - 1) : a;
        hi = dev < 0 ? (e + PAGE - 1) & ~(PAGE - 1) : e;
    }
    unsigned i = next_slot++ % SLOTS;
    cache[i] = (kind_range_t){lo, hi, dev};
    last_hit = i;
    return dev;
}
