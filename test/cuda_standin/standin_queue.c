/*
 * Stand-in CUDA runtime: devices, streams and deferred work.
 *
 * Work a GPU would do asynchronously waits in its stream's queue until
 * something synchronizes with it (standin.h lists when).  The legacy
 * stream of a device also waits for, and is waited for by, the device's
 * blocking streams; non-blocking streams are independent.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>
#include "standin.h"

#define MAX_DEVICES 16
#define STREAM_MAGIC 0x5354524du

typedef struct op {
    struct op *next;
    char *dst;
    const char *src; /* NULL: a memset of `value` */
    size_t n;
    int value;
    char *owned;     /* snapshot of a pageable source, freed after the copy */
} op_t;

struct CUstream_st {
    unsigned magic;
    int device;
    unsigned flags;
    op_t *head, *tail;
    struct CUstream_st *next; /* created streams */
};

static struct CUstream_st legacy[MAX_DEVICES];
static struct CUstream_st *created;
static __thread int current_device;

unsigned long standin_n_pointer_queries, standin_n_set_device, standin_n_ipc_opens,
    standin_n_copies;

int standin_device_count(void)
{
    const char *v = getenv("STANDIN_CUDA_DEVICES");
    int n = v ? atoi(v) : 1;
    return n < 0 ? 0 : n > MAX_DEVICES ? MAX_DEVICES : n;
}

size_t standin_device_memory(void)
{
    const char *v = getenv("STANDIN_CUDA_MEM");
    return v ? (size_t)strtoull(v, NULL, 0) : (size_t)16 << 30;
}

int standin_current_device(void)
{
    return current_device;
}

cudaError_t cudaSetDevice(int device)
{
    __atomic_fetch_add(&standin_n_set_device, 1, __ATOMIC_RELAXED);
    if (device < 0 || device >= standin_device_count())
        return cudaErrorInvalidDevice;
    current_device = device;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
    if (standin_device_count() == 0)
        return cudaErrorNoDevice;
    *device = current_device;
    return cudaSuccess;
}

/* A copy engine writes each destination byte once.  memcpy does not (its
 * small and tail cases store overlapping words twice): a PE waiting on
 * device memory could see the first store, write the variable itself, and
 * then see the second store bring the old value back (sync_p2p, Open MPI). */
static void copy_once(char *d, const char *s, size_t n)
{
    typedef uint64_t __attribute__((may_alias, aligned(1))) u64_u;
    for (; n >= 8; d += 8, s += 8, n -= 8)
        *(volatile u64_u *)d = *(const u64_u *)s;
    for (; n; d++, s++, n--)
        *(volatile char *)d = *s;
}

static void run(op_t *o)
{
    if (o->src)
        copy_once(o->dst, o->src, o->n);
    else
        memset(o->dst, o->value, o->n);
    free(o->owned);
    free(o);
    __atomic_fetch_add(&standin_n_copies, 1, __ATOMIC_RELAXED);
}

static void drain_one(struct CUstream_st *s)
{
    while (s->head) {
        op_t *o = s->head;
        s->head = o->next;
        run(o);
    }
    s->tail = NULL;
}

/* Everything s must wait for, then s; the caller holds standin_lock. */
static void drain(struct CUstream_st *s)
{
    int is_legacy = s == &legacy[s->device];
    if (is_legacy) {
        for (struct CUstream_st *c = created; c; c = c->next)
            if (c->device == s->device && !(c->flags & cudaStreamNonBlocking))
                drain_one(c);
    } else if (!(s->flags & cudaStreamNonBlocking)) {
        drain_one(&legacy[s->device]);
    }
    drain_one(s);
}

static struct CUstream_st *resolve(cudaStream_t s, cudaError_t *e)
{
    *e = cudaSuccess;
    /* 0 and the per-thread default (2) are the current device's stream. */
    if (s == NULL || (uintptr_t)s == 2) {
        struct CUstream_st *l = &legacy[current_device];
        l->device = current_device;
        return l;
    }
    if (s->magic != STREAM_MAGIC) {
        *e = cudaErrorInvalidResourceHandle;
        return NULL;
    }
    /* Strict: a stream is used with its device current. */
    if (s->device != current_device)
        *e = cudaErrorInvalidResourceHandle;
    return s;
}

static void append(struct CUstream_st *s, op_t *o)
{
    if (s->tail)
        s->tail->next = o;
    else
        s->head = o;
    s->tail = o;
}

static int is_pinned(const void *p)
{
    region_t *r = standin_find(p);
    return r && r->kind == REGION_PINNED;
}

cudaError_t standin_enqueue_copy(cudaStream_t stream, void *dst, const void *src, size_t n,
                                 enum cudaMemcpyKind kind, int synchronous)
{
    char *ddev = standin_shadow_range(dst, n), *sdev = standin_shadow_range(src, n);
    if (ddev == (char *)-1 || sdev == (char *)-1 || (unsigned)kind > cudaMemcpyDefault)
        return cudaErrorInvalidValue;
    static const int want_src_dev[4] = {0, 0, 1, 1}, want_dst_dev[4] = {0, 1, 0, 1};
    if (kind != cudaMemcpyDefault &&
        ((sdev != NULL) != want_src_dev[kind] || (ddev != NULL) != want_dst_dev[kind]))
        return cudaErrorInvalidValue; /* the kind does not match the memory */
    if (n == 0)
        return cudaSuccess;
    cudaError_t e;
    pthread_mutex_lock(&standin_lock);
    struct CUstream_st *s = resolve(stream, &e);
    if (e != cudaSuccess) {
        pthread_mutex_unlock(&standin_lock);
        return e;
    }
    op_t *o = calloc(1, sizeof *o);
    o->dst = ddev ? ddev : dst;
    o->src = sdev ? sdev : src;
    o->n = n;
    int now;
    if (!ddev && !sdev) {
        now = 1; /* host to host */
    } else if (!ddev) {
        now = synchronous || !is_pinned(dst); /* to pageable memory: waits */
    } else if (!sdev) {
        /* From pageable memory: copied aside at once, the DMA later.  From
         * pinned memory: read when the copy runs, unless synchronous. */
        now = synchronous && is_pinned(src);
        if (!is_pinned(src)) {
            o->owned = malloc(n);
            memcpy(o->owned, src, n);
            o->src = o->owned;
        }
    } else {
        now = 0; /* device to device: never waited for */
    }
    if (now) {
        drain(s);
        run(o);
    } else {
        append(s, o);
    }
    pthread_mutex_unlock(&standin_lock);
    return cudaSuccess;
}

cudaError_t standin_enqueue_set(cudaStream_t stream, void *dst, int value, size_t n)
{
    char *d = standin_shadow_range(dst, n);
    if (d == NULL || d == (char *)-1)
        return cudaErrorInvalidValue;
    if (n == 0)
        return cudaSuccess;
    cudaError_t e;
    pthread_mutex_lock(&standin_lock);
    struct CUstream_st *s = resolve(stream, &e);
    if (e == cudaSuccess) {
        op_t *o = calloc(1, sizeof *o);
        o->dst = d;
        o->value = value;
        o->n = n;
        append(s, o);
    }
    pthread_mutex_unlock(&standin_lock);
    return e;
}

cudaError_t standin_stream_create(cudaStream_t *out, unsigned flags)
{
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (s == NULL)
        return cudaErrorMemoryAllocation;
    s->magic = STREAM_MAGIC;
    s->device = current_device;
    s->flags = flags;
    pthread_mutex_lock(&standin_lock);
    s->next = created;
    created = s;
    pthread_mutex_unlock(&standin_lock);
    *out = s;
    return cudaSuccess;
}

cudaError_t standin_stream_destroy(cudaStream_t stream)
{
    if (stream == NULL || stream->magic != STREAM_MAGIC)
        return cudaErrorInvalidResourceHandle;
    pthread_mutex_lock(&standin_lock);
    drain(stream); /* its work still completes */
    for (struct CUstream_st **p = &created; *p; p = &(*p)->next)
        if (*p == stream) {
            *p = stream->next;
            break;
        }
    stream->magic = 0;
    pthread_mutex_unlock(&standin_lock);
    free(stream);
    return cudaSuccess;
}

cudaError_t standin_stream_sync(cudaStream_t stream)
{
    cudaError_t e;
    pthread_mutex_lock(&standin_lock);
    struct CUstream_st *s = resolve(stream, &e);
    if (s != NULL && (e == cudaSuccess || stream != NULL))
        drain(s); /* cudaStreamSynchronize works from any device */
    pthread_mutex_unlock(&standin_lock);
    return s ? cudaSuccess : e;
}

void standin_device_sync(int device)
{
    pthread_mutex_lock(&standin_lock);
    for (struct CUstream_st *c = created; c; c = c->next)
        if (c->device == device)
            drain_one(c);
    drain_one(&legacy[device]);
    pthread_mutex_unlock(&standin_lock);
}

void standin_sync_all(void)
{
    for (int d = 0; d < MAX_DEVICES; d++)
        standin_device_sync(d);
}
