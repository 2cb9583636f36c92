/*
 * mpishmem: the agent: device memory reached through the PE that owns it.
 *
 * Where MPI is not GPU-aware (and no IPC mapping reaches the memory), a put
 * into another PE's device memory, a get from it, and every AMO on device
 * memory are requests to the owner, sent over MPI from page-locked host
 * buffers.  The owner serves them while it is inside the library (every
 * wait of the library takes a serving step, gpu_path.h): it copies a put's
 * data into its device memory, sends a get's data back, applies an AMO
 * and answers with the old value.  The requests are a kind of the request
 * service (request_service.h): its communicator, tags, reply numbering,
 * lock and answer wait; each names its segment by the id its members
 * agreed on (gpu_seg.c).  Requests of one origin are served in the order
 * sent (one tag; MPI does not overtake), so a request's answer also says
 * that the origin's earlier requests to that PE are done.  Transfers move in chunks of CHUNK bytes
 * through two buffers, so one chunk's device copy overlaps the previous
 * chunk's message.
 *
 * The service's lock serializes this PE's agent work and its own requests
 * (they share the buffers); a thread waiting for an answer serves incoming
 * requests meanwhile, so two PEs waiting for each other both progress.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "amo_path.h"
#include "cuda_rt.h"
#include "gpu_agent.h"
#include "progress.h"
#include "request_service.h"
#include "error.h"

enum { REQ_PUT = 1, REQ_GET, REQ_AMO };

typedef struct req {
    uint32_t type;
    int32_t reply;     /* tag of the answer; -1: none (a put's chunks but the last) */
    int32_t seg, pad;  /* the segment's id (mpishmem_gpu_seg_t) */
    uint64_t off, len; /* put: bytes following the header; get: bytes wanted */
    uint32_t op, size; /* AMO */
    uint64_t value, cond;
} req_t;

#define HDR sizeof(req_t)

static mpishmem_segment_t *served[MPISHMEM_MAX_SEGMENTS];
static int n_served;
static char *in_buf, *out_buf[2], *stage_buf[2]; /* page-locked, HDR + CHUNK each */
#define LAND_CHUNKS 2
#define LAND_BYTES (LAND_CHUNKS * MPISHMEM_GPU_CHUNK)
static char *land_buf; /* page-locked, LAND_BYTES: gets into device memory */

static int handle(const void *msg, int bytes, int src);

/* ---- set-up ------------------------------------------------------------------ */

static int buffers_ready(void)
{
    char **all[5] = {&in_buf, &out_buf[0], &out_buf[1], &stage_buf[0], &stage_buf[1]};
    for (int i = 0; i < 5; i++)
        if (*all[i] == NULL && (*all[i] = mpishmem_cuda_host_alloc(HDR + MPISHMEM_GPU_CHUNK)) == NULL)
            return -1;
    if (land_buf == NULL && (land_buf = mpishmem_cuda_host_alloc(LAND_BYTES)) == NULL)
        return -1;
    return 0;
}

static void buffers_free(void)
{
    char **all[5] = {&in_buf, &out_buf[0], &out_buf[1], &stage_buf[0], &stage_buf[1]};
    for (int i = 0; i < 5; i++) {
        if (*all[i])
            mpishmem_cuda_host_free(*all[i]);
        *all[i] = NULL;
    }
    if (land_buf)
        mpishmem_cuda_host_free(land_buf);
    land_buf = NULL;
}

int mpishmem_gpu_agent_add(mpishmem_segment_t *s)
{
    mpishmem_requests_lock();
    int rc = buffers_ready(), first = 0;
    if (rc == 0 && n_served < MPISHMEM_MAX_SEGMENTS) {
        served[n_served++] = s;
        first = n_served == 1;
    } else {
        rc = -1;
    }
    mpishmem_requests_unlock();
    if (first)
        mpishmem_requests_register(MPISHMEM_REQ_GPU, handle, in_buf,
                                   (int)(HDR + MPISHMEM_GPU_CHUNK), 0);
    return rc;
}

void mpishmem_gpu_agent_remove(mpishmem_segment_t *s)
{
    mpishmem_requests_lock();
    int last = 0;
    for (int i = 0; i < n_served; i++)
        if (served[i] == s) {
            served[i] = served[--n_served];
            last = n_served == 0;
            break;
        }
    mpishmem_requests_unlock();
    if (!last)
        return;
    mpishmem_requests_unregister(MPISHMEM_REQ_GPU);
    mpishmem_requests_lock();
    if (n_served == 0)
        buffers_free();
    mpishmem_requests_unlock();
}

char *mpishmem_gpu_stage_buffer(int k)
{
    return stage_buf[k] + HDR;
}

/* ---- serving ----------------------------------------------------------------- */

static void check_range(const mpishmem_segment_t *s, const req_t *r)
{
    if (r->off > s->size || r->len > s->size - r->off)
        mpishmem_fatal("mpishmem agent", "a request for %llu bytes at offset %llu is outside "
                       "the %zu bytes of the %s", (unsigned long long)r->len,
                       (unsigned long long)r->off, s->size, s->name);
}

uint64_t mpishmem_gpu_amo_apply(mpishmem_segment_t *s, int op, size_t off, size_t size,
                                uint64_t value, uint64_t cond)
{
    char *word = s->base + off;
    /* The word is read, changed on the host and written back; the agent
     * lock makes that atomic against every other AMO on this memory. */
    uint64_t old;
    if (size == 8) {
        uint64_t w;
        mpishmem_cuda_copy(&w, 0, word, 1, 8);
        old = mpishmem_amo_cpu64(op, &w, value, cond);
        if (op != MPISHMEM_AMO_FETCH)
            mpishmem_cuda_copy(word, 1, &w, 0, 8);
    } else {
        uint32_t w;
        mpishmem_cuda_copy(&w, 0, word, 1, 4);
        old = mpishmem_amo_cpu32(op, &w, (uint32_t)value, (uint32_t)cond);
        if (op != MPISHMEM_AMO_FETCH)
            mpishmem_cuda_copy(word, 1, &w, 0, 4);
    }
    return old;
}

/* A get: the data back in chunks, each copied out of the device while the
 * previous one is on its way. */
static void serve_get(mpishmem_segment_t *s, MPI_Comm comm, int src, const req_t *r)
{
    MPI_Request out[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    for (uint64_t done = 0, k = 0; done < r->len; k++) {
        size_t c = r->len - done < MPISHMEM_GPU_CHUNK ? r->len - done : MPISHMEM_GPU_CHUNK;
        mpishmem_wait_request(&out[k % 2]);
        mpishmem_cuda_copy(out_buf[k % 2], 0, s->base + r->off + done, 1, c);
        MPISHMEM_MPI(MPI_Isend(out_buf[k % 2], (int)c, MPI_BYTE, src, r->reply, comm, &out[k % 2]));
        done += c;
    }
    mpishmem_wait_request(&out[0]);
    mpishmem_wait_request(&out[1]);
}

static mpishmem_segment_t *served_seg(int id, int src)
{
    for (int i = 0; i < n_served; i++)
        if (served[i]->gpu->id == id)
            return served[i];
    mpishmem_fatal("mpishmem agent", "PE %d sent a request for device segment %d, which "
                   "this PE does not serve", src, id);
}

/* One request (request_service.c calls this with its lock held); the
 * agent answers itself, so the service owes no acknowledgement. */
static int handle(const void *msg, int bytes, int src)
{
    MPI_Comm comm = mpishmem_requests_comm();
    req_t r;
    if (bytes < (int)HDR)
        mpishmem_fatal("mpishmem agent", "PE %d sent %d bytes, not a request", src, bytes);
    memcpy(&r, msg, HDR);
    mpishmem_segment_t *s = served_seg(r.seg, src);
    if (r.type != REQ_AMO)
        check_range(s, &r);
    switch (r.type) {
    case REQ_PUT:
        if ((size_t)bytes != HDR + r.len)
            mpishmem_fatal("mpishmem agent", "a put request of %d bytes announces %llu", bytes,
                           (unsigned long long)r.len);
        mpishmem_cuda_copy(s->base + r.off, 1, (const char *)msg + HDR, 0, r.len);
        if (r.reply >= 0)
            MPISHMEM_MPI(MPI_Send(NULL, 0, MPI_BYTE, src, r.reply, comm));
        break;
    case REQ_GET:
        serve_get(s, comm, src, &r);
        break;
    case REQ_AMO: {
        if ((r.size != 4 && r.size != 8) || r.off > s->size - r.size)
            mpishmem_fatal("mpishmem agent", "a %u-byte AMO at offset %llu does not fit the "
                           "%s", r.size, (unsigned long long)r.off, s->name);
        uint64_t old = mpishmem_gpu_amo_apply(s, (int)r.op, r.off, r.size, r.value, r.cond);
        MPISHMEM_MPI(MPI_Send(&old, 8, MPI_BYTE, src, r.reply, comm));
        break;
    }
    default:
        mpishmem_fatal("mpishmem agent", "unknown request type %u", r.type);
    }
    return 0;
}

/* Until r completes, serving meanwhile; the caller holds the lock. */
void mpishmem_gpu_wait_serving(MPI_Request *r)
{
    mpishmem_wait_answer(r);
}

/* ---- requests ---------------------------------------------------------------- */

void mpishmem_gpu_agent_put(mpishmem_segment_t *s, int pe, size_t off, const void *src,
                            int src_dev, size_t n)
{
    MPI_Comm comm = mpishmem_requests_comm();
    int rank = pe, id = s->gpu->id;
    mpishmem_requests_lock();
    MPI_Request ack, out[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    int tag = mpishmem_requests_reply_tag();
    MPISHMEM_MPI(MPI_Irecv(NULL, 0, MPI_BYTE, rank, tag, comm, &ack));
    for (size_t done = 0, k = 0; done < n; k++) {
        size_t c = n - done < MPISHMEM_GPU_CHUNK ? n - done : MPISHMEM_GPU_CHUNK;
        char *buf = stage_buf[k % 2];
        mpishmem_gpu_wait_serving(&out[k % 2]);
        req_t r = {.type = REQ_PUT, .seg = id, .reply = done + c == n ? tag : -1, .off = off + done,
                   .len = c};
        memcpy(buf, &r, HDR);
        if (src_dev)
            mpishmem_cuda_copy(buf + HDR, 0, (const char *)src + done, 1, c);
        else
            memcpy(buf + HDR, (const char *)src + done, c);
        MPISHMEM_MPI(MPI_Isend(buf, (int)(HDR + c), MPI_BYTE, rank, mpishmem_requests_tag(MPISHMEM_REQ_GPU), comm, &out[k % 2]));
        done += c;
    }
    mpishmem_gpu_wait_serving(&out[0]);
    mpishmem_gpu_wait_serving(&out[1]);
    mpishmem_gpu_wait_serving(&ack);
    mpishmem_requests_unlock();
}

/* One get request: n bytes from the owner's offset off into land (host
 * memory), in chunks.  With dest (device memory), each chunk, once in, is
 * copied on from land while the next ones arrive.
 * Every chunk's receive is posted before the request goes: the owner's
 * sends then always find theirs, even while this PE, waiting, serves the
 * owner's own get (a receive posted only after the previous chunk arrived
 * would wait for a loop that is suspended under the serving). */
static void get_request(MPI_Comm comm, int rank, int id, size_t off, char *land, char *dest,
                        size_t n)
{
    size_t chunks = (n + MPISHMEM_GPU_CHUNK - 1) / MPISHMEM_GPU_CHUNK;
    MPI_Request few[LAND_CHUNKS], *in = chunks <= LAND_CHUNKS ? few : malloc(chunks * sizeof *in);
    MPI_Request sent;
    if (in == NULL)
        mpishmem_fatal("shmem_get", "out of memory for a %zu-byte get from device memory", n);
    int tag = mpishmem_requests_reply_tag();
    for (size_t k = 0; k < chunks; k++) {
        size_t at = k * MPISHMEM_GPU_CHUNK, c = n - at < MPISHMEM_GPU_CHUNK ? n - at
                                                                         : MPISHMEM_GPU_CHUNK;
        MPISHMEM_MPI(MPI_Irecv(land + at, (int)c, MPI_BYTE, rank, tag, comm, &in[k]));
    }
    req_t r = {.type = REQ_GET, .seg = id, .reply = tag, .off = off, .len = n};
    memcpy(stage_buf[0], &r, HDR);
    MPISHMEM_MPI(MPI_Isend(stage_buf[0], (int)HDR, MPI_BYTE, rank, mpishmem_requests_tag(MPISHMEM_REQ_GPU), comm, &sent));
    for (size_t k = 0; k < chunks; k++) {
        mpishmem_gpu_wait_serving(&in[k]);
        size_t at = k * MPISHMEM_GPU_CHUNK, c = n - at < MPISHMEM_GPU_CHUNK ? n - at
                                                                         : MPISHMEM_GPU_CHUNK;
        if (dest)
            mpishmem_cuda_copy_start(dest + at, 1, land + at, 0, c);
    }
    mpishmem_gpu_wait_serving(&sent);
    if (dest)
        mpishmem_cuda_wait(); /* land is free again, dest complete */
    if (in != few)
        free(in);
}

/* Into host memory: straight into dest.  Into device memory: through the
 * page-locked landing buffer, LAND_CHUNKS chunks per request (a copy from
 * pageable memory costs up to 4x more: 1 MiB from pageable memory to an
 * H100 took 96-163 us, from page-locked memory 29-31 us). */
void mpishmem_gpu_agent_get(mpishmem_segment_t *s, int pe, size_t off, void *dest,
                            int dest_dev, size_t n)
{
    MPI_Comm comm = mpishmem_requests_comm();
    int rank = pe, id = s->gpu->id;
    mpishmem_requests_lock();
    if (!dest_dev)
        get_request(comm, rank, id, off, dest, NULL, n);
    else
        for (size_t done = 0; done < n;) {
            size_t c = n - done < LAND_BYTES ? n - done : LAND_BYTES;
            get_request(comm, rank, id, off + done, land_buf, (char *)dest + done, c);
            done += c;
        }
    mpishmem_requests_unlock();
}

uint64_t mpishmem_gpu_agent_amo(mpishmem_segment_t *s, int pe, int op, size_t off, size_t size,
                                uint64_t value, uint64_t cond)
{
    MPI_Comm comm = mpishmem_requests_comm();
    int rank = pe, id = s->gpu->id;
    uint64_t old = 0;
    mpishmem_requests_lock();
    int tag = mpishmem_requests_reply_tag();
    MPI_Request ans, sent;
    MPISHMEM_MPI(MPI_Irecv(&old, 8, MPI_BYTE, rank, tag, comm, &ans));
    req_t r = {.type = REQ_AMO, .seg = id, .reply = tag, .off = off, .op = (uint32_t)op,
               .size = (uint32_t)size, .value = value, .cond = cond};
    memcpy(stage_buf[0], &r, HDR);
    MPISHMEM_MPI(MPI_Isend(stage_buf[0], (int)HDR, MPI_BYTE, rank, mpishmem_requests_tag(MPISHMEM_REQ_GPU), comm, &sent));
    mpishmem_gpu_wait_serving(&sent);
    mpishmem_gpu_wait_serving(&ans);
    mpishmem_requests_unlock();
    return old;
}
