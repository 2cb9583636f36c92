/*
 * Controls of the stand-in CUDA runtime (standin.h) for the tests, the
 * GPU-aware MPI emulation (mpi_shim.c) and the library guard (guard.c).
 * Reached with dlsym on the runtime the library loaded
 * (test/gpu/gpu_common.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef STANDIN_CONTROL_H
#define STANDIN_CONTROL_H

#include <stddef.h>

/* The stand-in's read/write view of the device byte at p, or NULL when p
 * is not device memory.  Only the MPI emulation uses it: a GPU-aware MPI
 * reads and writes device memory by its own means, never by a CPU load in
 * the library. */
void *standin_shadow(const void *p);

/* Programs written for host memory (the library's own tests run with
 * SHMEM_DEFAULT_SPACE=GPU) touch shmem_malloc memory directly.  The guard
 * (guard.c) wraps every OpenSHMEM routine: outside the library device
 * memory is then readable and writable like CUDA managed memory; while any
 * thread runs inside the library, it is not, and a CPU access by the
 * library (or by a non-GPU-aware MPI it called) stops the process as in
 * strict mode.  A program thread touching device memory while another
 * thread is inside the library is let through one instruction at a time. */
void standin_program_access(int allowed);
/* The guard's answer to "is the calling thread inside the library?"
 * (async-signal-safe); without it every access counts as the library's. */
void standin_set_library_query(int (*in_library)(void));

/* "pointer_queries" (cudaPointerGetAttributes calls), "set_device"
 * (cudaSetDevice calls), "ipc_opens", "copies" (copies and sets run);
 * 0 for an unknown name. */
unsigned long standin_counter(const char *name);

#endif
