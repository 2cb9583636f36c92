/*
 * mpishmem: memory-space objects.
 *
 * A space is a symmetric heap (its own windows over its team's
 * communicator and its own allocator) plus the team of PEs that can reach
 * its device.  The default space wraps the heap made by shmem_init and its
 * team is SHMEM_TEAM_WORLD.  A PE outside a space has no object for it:
 * its handle reads SHMEM_SPACE_INVALID there.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_SPACE_H
#define MPISHMEM_SPACE_H

#include <mpi.h>
#include <shmem.h>
#include "heap.h"
#include "../../teams/team.h"

typedef struct mpishmem_space {
    mpishmem_heap_t own_heap;    /* the memory of every space but the default one */
    mpishmem_heap_t *heap;       /* &own_heap, or &mpishmem_default_heap */
    shmem_device_type_t device;
    shmem_space_cap_t caps;
    /* The space-associated team: a team of the user's (destroyable, for
     * dynamic spaces), SHMEM_TEAM_INVALID once destroyed. */
    shmem_team_t team;
    /* Parent of `team`: anchor.n_children counts the live teams made from
     * the space team, itself included, whoever was destroyed in between
     * (team release hands children to the grandparent). */
    struct mpishmem_team anchor;
    MPI_Comm comm;               /* the members (owned), or MPI_COMM_NULL: the world */
    MPI_Comm shm_comm;           /* the members on this node (owned), or MPI_COMM_NULL */
    int predefined;              /* SHMEM_SPACE_CPU/GPU: only shmem_finalize ends them */
    char name[40];               /* for messages: "CPU space 3" */
    struct mpishmem_space *next; /* live list, oldest first */
} mpishmem_space_t;

/* Live spaces (space_registry.c). */
extern mpishmem_space_t *mpishmem_spaces_head;
void mpishmem_space_link(mpishmem_space_t *sp);
void mpishmem_space_unlink(mpishmem_space_t *sp);
int mpishmem_space_is_live(const mpishmem_space_t *sp);
/* The space whose heap is segment s, or NULL (global data, freed spaces). */
mpishmem_space_t *mpishmem_space_of_segment(const mpishmem_segment_t *s);
/* SHMEM_DEBUG: stop unless space is a live handle on this PE. */
void mpishmem_check_space(const char *routine, shmem_space_t space);

/* Objects spaces hold, for leak tests: live spaces, and the MPI
 * communicators and windows spaces created and have not freed. */
typedef struct {
    int spaces, comms, windows;
} mpishmem_space_counts_t;
extern mpishmem_space_counts_t mpishmem_space_counts;

/* Build a space over the PEs that pass member != 0 (space_create.c).
 * Collective over the world.  0 and *out (NULL on non-members), or nonzero
 * on every PE with *out NULL and a reason in why (empty team, size beyond the
 * device, out of resources). */
int mpishmem_space_build(shmem_device_type_t device, size_t size, int member,
                         int predefined, const char *size_var, mpishmem_space_t **out,
                         char *why, size_t why_len);
/* Collective over the members: free the heap, communicators, object. */
void mpishmem_space_release(mpishmem_space_t *sp);
/* The capabilities of a space, from what this build and MPI can do. */
shmem_space_cap_t mpishmem_space_caps(const mpishmem_space_t *sp);

/* Predefined spaces (predefined.c): made after the teams, ended before the
 * default heap goes. */
int mpishmem_spaces_init(void);
void mpishmem_spaces_finalize(void);

/* For the collectives, in SHMEM_DEBUG mode (space_checks.c): stops unless
 * a and b (either may be NULL) lie in one space -- the default space counts
 * global data as its own -- and every member of `team` is a member of that
 * space.  Returns 0.  The collectives should call it when
 * MPISHMEM_DEBUG_ON, as the spaces proposals require single-space
 * collectives on teams inside the space's team. */
int mpishmem_space_check_buffers(const char *routine, shmem_team_t team, const void *a,
                                 const void *b);

#endif
