/*
 * mpishmem: OpenSHMEM 1.6 on MPI-3 RMA.  Public C interface.
 *
 * The typed routines are declared from the type tables in
 * <mpishmem/type_tables.h>, so this file never lists a type by hand.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_SHMEM_H
#define MPISHMEM_SHMEM_H

#include <stddef.h>
#include <stdint.h>
#include <mpishmem/type_tables.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Library version and identity ------------------------------------ */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 6
#define SHMEM_MAX_NAME_LEN 256
#define SHMEM_VENDOR_STRING "mpishmem 1.0.0 (OpenSHMEM on MPI-3 RMA)"
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

#define MPISHMEM_VERSION_MAJOR 1
#define MPISHMEM_VERSION_MINOR 0
#define MPISHMEM_VERSION_PATCH 0

/* ---- Thread levels ----------------------------------------------------- */
#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

/* ---- Point-to-point comparison operators -------------------------------- */
#define SHMEM_CMP_EQ 1
#define SHMEM_CMP_NE 2
#define SHMEM_CMP_GT 3
#define SHMEM_CMP_GE 4
#define SHMEM_CMP_LT 5
#define SHMEM_CMP_LE 6
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

/* ---- Signal operators ---------------------------------------------------- */
#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* ---- Allocation hints (shmem_malloc_with_hints) -------------------------- */
#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

/* ---- Handles --------------------------------------------------------------
 * Teams and contexts are pointers to library objects.  The predefined
 * handles are the addresses of static objects, so they are link-time
 * constants that never change value during a run. */
typedef struct mpishmem_team *shmem_team_t;
typedef struct mpishmem_ctx *shmem_ctx_t;

extern struct mpishmem_team mpishmem_team_world_object;
extern struct mpishmem_team mpishmem_team_shared_object;
extern struct mpishmem_ctx mpishmem_ctx_default_object;

#define SHMEM_TEAM_WORLD ((shmem_team_t)&mpishmem_team_world_object)
#define SHMEM_TEAM_SHARED ((shmem_team_t)&mpishmem_team_shared_object)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#define SHMEM_CTX_DEFAULT ((shmem_ctx_t)&mpishmem_ctx_default_object)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

/* Team configuration (shmem_team_split_*, shmem_team_get_config). */
typedef struct {
    int num_contexts;    /* contexts the team expects to create */
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

#if defined(__GNUC__)
#define MPISHMEM_NORETURN __attribute__((noreturn))
#else
#define MPISHMEM_NORETURN
#endif

/* ---- Setup, exit and query ------------------------------------------------ */
void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status) MPISHMEM_NORETURN;
int shmem_query_initialized(int *initialized);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);
void shmem_pcontrol(int level, ...);

/* Cache management of OpenSHMEM 1.0 (deprecated in 1.3, removed in 1.5):
 * no-ops, as the spec allowed on cache-coherent systems (lib/cache.c). */
void shmem_clear_cache_inv(void);
void shmem_set_cache_inv(void);
void shmem_clear_cache_line_inv(void *dest);
void shmem_set_cache_line_inv(void *dest);
void shmem_udcflush(void);
void shmem_udcflush_line(void *dest);

/* Deprecated setup and query routines, kept for OpenSHMEM 1.0 programs. */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);

/* ---- Symmetric memory management ----------------------------------------- */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_malloc_with_hints(size_t size, long hints);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);
void *shmalloc(size_t size);
void *shmemalign(size_t alignment, size_t size);
void *shmalign(size_t alignment, size_t size);
void *shrealloc(void *ptr, size_t size);
void shfree(void *ptr);

/* ---- RMA: typed routines, generated from the type table ------------------ */
#define MPISHMEM_DECLARE_RMA_TYPED(T, N, A)                                                     \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe);                  \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,      \
                             int pe);                                                       \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe);                  \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,      \
                             int pe);                                                       \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe);              \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,  \
                                 int pe);                                                   \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe);              \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,  \
                                 int pe);                                                   \
    void shmem_##N##_p(T *dest, T value, int pe);                                           \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe);                      \
    T shmem_##N##_g(const T *source, int pe);                                               \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe);                          \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,           \
                          size_t nelems, int pe);                                           \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,     \
                              ptrdiff_t sst, size_t nelems, int pe);                        \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,           \
                          size_t nelems, int pe);                                           \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,     \
                              ptrdiff_t sst, size_t nelems, int pe);                        \
    void shmem_##N##_ibput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,          \
                           size_t bsize, size_t nblocks, int pe);                           \
    void shmem_ctx_##N##_ibput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,    \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);        \
    void shmem_##N##_ibget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,          \
                           size_t bsize, size_t nblocks, int pe);                           \
    void shmem_ctx_##N##_ibget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,    \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);
MPISHMEM_RMA_TYPES(MPISHMEM_DECLARE_RMA_TYPED, _)

#define MPISHMEM_DECLARE_RMA_SIZED(BITS, BYTES, A)                                              \
    void shmem_put##BITS(void *dest, const void *source, size_t nelems, int pe);            \
    void shmem_ctx_put##BITS(shmem_ctx_t ctx, void *dest, const void *source,               \
                             size_t nelems, int pe);                                        \
    void shmem_get##BITS(void *dest, const void *source, size_t nelems, int pe);            \
    void shmem_ctx_get##BITS(shmem_ctx_t ctx, void *dest, const void *source,               \
                             size_t nelems, int pe);                                        \
    void shmem_put##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);      \
    void shmem_ctx_put##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source,         \
                                   size_t nelems, int pe);                                  \
    void shmem_get##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);      \
    void shmem_ctx_get##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source,         \
                                   size_t nelems, int pe);                                  \
    void shmem_iput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,     \
                          size_t nelems, int pe);                                           \
    void shmem_ctx_iput##BITS(shmem_ctx_t ctx, void *dest, const void *source,              \
                              ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);         \
    void shmem_iget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,     \
                          size_t nelems, int pe);                                           \
    void shmem_ctx_iget##BITS(shmem_ctx_t ctx, void *dest, const void *source,              \
                              ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);         \
    void shmem_ibput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                           size_t bsize, size_t nblocks, int pe);                           \
    void shmem_ctx_ibput##BITS(shmem_ctx_t ctx, void *dest, const void *source,             \
                               ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks,  \
                               int pe);                                                     \
    void shmem_ibget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                           size_t bsize, size_t nblocks, int pe);                           \
    void shmem_ctx_ibget##BITS(shmem_ctx_t ctx, void *dest, const void *source,             \
                               ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks,  \
                               int pe);
MPISHMEM_RMA_SIZES(MPISHMEM_DECLARE_RMA_SIZED, _)

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                          int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                          int pe);

/* ---- Ordering and completion ---------------------------------------------- */
void shmem_fence(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_quiet(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);
void shmem_pe_quiet(const int *target_pes, size_t npes);
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);
void shmem_barrier_all(void);
void shmem_sync_all(void);

/* ---- Point-to-point synchronization ---------------------------------------- */
#define MPISHMEM_DECLARE_P2P(T, N, A)                                                           \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                             \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,    \
                                    T cmp_value);                                           \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,  \
                                      T cmp_value);                                         \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,            \
                                       const int *status, int cmp, T cmp_value);            \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status,      \
                                           int cmp, T *cmp_values);                         \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status,    \
                                             int cmp, T *cmp_values);                       \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,     \
                                              const int *status, int cmp, T *cmp_values);   \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);                                    \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp,           \
                             T cmp_value);                                                  \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,        \
                                T cmp_value);                                               \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices,                  \
                                 const int *status, int cmp, T cmp_value);                  \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,    \
                                    T *cmp_values);                                         \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                       T *cmp_values);                                      \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,           \
                                        const int *status, int cmp, T *cmp_values);
MPISHMEM_P2P_TYPES(MPISHMEM_DECLARE_P2P, _)

#define MPISHMEM_DECLARE_P2P_LEGACY(T, N, A)                                                    \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                             \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);
MPISHMEM_P2P_LEGACY_TYPES(MPISHMEM_DECLARE_P2P_LEGACY, _)

#define MPISHMEM_DECLARE_WAIT_LEGACY(T, N, A) void shmem_##N##_wait(T *ivar, T cmp_value);
MPISHMEM_WAIT_LEGACY_TYPES(MPISHMEM_DECLARE_WAIT_LEGACY, _)

uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* Deprecated untyped (long) forms.  The parentheses keep the C11 macro of
 * the same name from expanding here. */
void(shmem_wait)(long *ivar, long cmp_value);
void(shmem_wait_until)(long *ivar, int cmp, long cmp_value);

/* ---- Atomics, signals and locks ------------------------------------------ */
#include <mpishmem/atomics.h>

/* ---- Teams, collectives, contexts, memory spaces -------------------------- */
#include <mpishmem/teams.h>
#include <mpishmem/collectives.h>
#include <mpishmem/contexts.h>
#include <mpishmem/spaces.h>

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ---- C11 type-generic interface -------------------------------------------- */
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#include <mpishmem/generic.h>
#endif

#endif /* MPISHMEM_SHMEM_H */
