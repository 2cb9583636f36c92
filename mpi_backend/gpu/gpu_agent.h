/*
 * mpishmem: the agent (gpu_agent.c) as the rest of the GPU data path uses
 * it.  Every call here takes the request service's lock itself, except
 * where said.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_GPU_AGENT_H
#define MPISHMEM_GPU_AGENT_H

#include <stdint.h>
#include "gpu_path.h"

/* Bytes per staged chunk (the agent's messages, and the staged MPI path). */
#define MPISHMEM_GPU_CHUNK ((size_t)512 << 10)

/* Serve requests for device segment s (its memory is this PE's); 0, or -1
 * when the page-locked buffers cannot be made. */
int mpishmem_gpu_agent_add(mpishmem_segment_t *s);
void mpishmem_gpu_agent_remove(mpishmem_segment_t *s);

/* Requests to the owner pe of s; each returns when done at the owner. */
void mpishmem_gpu_agent_put(mpishmem_segment_t *s, int pe, size_t off, const void *src,
                            int src_dev, size_t n);
void mpishmem_gpu_agent_get(mpishmem_segment_t *s, int pe, size_t off, void *dest,
                            int dest_dev, size_t n);
uint64_t mpishmem_gpu_agent_amo(mpishmem_segment_t *s, int pe, int op, size_t off, size_t size,
                                uint64_t value, uint64_t cond);

/* An AMO on this PE's own device memory; the caller holds the lock. */
uint64_t mpishmem_gpu_amo_apply(mpishmem_segment_t *s, int op, size_t off, size_t size,
                                uint64_t value, uint64_t cond);

/* The two staging buffers (CHUNK bytes each) that the request service's
 * lock (mpishmem_requests_lock) guards, and a wait that serves while it
 * waits (lock held). */
char *mpishmem_gpu_stage_buffer(int k);
void mpishmem_gpu_wait_serving(MPI_Request *r);

#endif
