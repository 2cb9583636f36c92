/*
 * mpishmem: which PEs share this node (and this machine), found once in
 * shmem_init (init_internal.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <shmem.h>
#include "init_internal.h"
#include "../mpi_backend/runtime/error.h"
#include "../mpi_backend/runtime/runtime.h"
#include "../mpi_backend/progress/progress.h"
#include "../mpi_backend/runtime/launcher_env.h"
#include "../spaces/heap/heap.h"

/* FNV-1a over a string, continuing from h. */
static uint64_t hash_text(uint64_t h, const char *text)
{
    for (const char *c = text; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    return h;
}

/* This boot of this machine (one kernel: its cores are shared by every
 * process on it, whatever host name a container or UTS namespace gives
 * them); the host name where the kernel does not say. */
static uint64_t machine_hash(uint64_t h, const char *name)
{
    char boot[64] = "";
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f != NULL) {
        if (fgets(boot, sizeof boot, f) == NULL)
            boot[0] = '\0';
        fclose(f);
    }
    return hash_text(h, boot[0] ? boot : name);
}

/* Set by job_on_one_node: every PE runs on this machine, though the
 * launcher may have split them into several MPI nodes (MPICH's
 * -launcher fork -hosts a,b; Open MPI daemons in UTS namespaces). */
static int on_one_machine;

int mpishmem_job_on_one_machine(void)
{
    return on_one_machine;
}

/* Whether the whole job is on this node: the launcher says it put every
 * process here and every PE runs on the same host (name and boot).  One
 * polled allreduce, the same answer on every PE. */
static int job_on_one_node(void)
{
    char name[256] = "";
    gethostname(name, sizeof name - 1);
    uint64_t basis = 14695981039346656037ull;
    uint64_t machine = machine_hash(basis, name);
    uint64_t host = hash_text(machine, name);
    uint64_t mine[5] = {mpishmem_launcher_local_size() != mpishmem_rt.n_pes, host, ~host,
                        machine, ~machine},
             max[5];
    mpishmem_allreduce(mine, max, 5, MPI_UINT64_T, MPI_MAX, mpishmem_rt.world);
    /* highest hash = lowest: all equal */
    on_one_machine = max[3] == ~max[4];
    return max[0] == 0 && max[1] == ~max[2];
}

/* The node communicator and its PEs (a computed map when they are
 * consecutive or strided world ranks, tables of the node's size otherwise).
 * MPICH's MPI_Comm_split_type is blocking collectives that spin (4.6 s at
 * 64 PEs on 2 cores); when the job is on one node, the node is the world
 * and a polled duplicate takes 19 ms. */
void mpishmem_map_node(void)
{
    if (job_on_one_node())
        mpishmem_comm_dup(mpishmem_rt.world, &mpishmem_rt.node);
    else
        MPISHMEM_MPI(MPI_Comm_split_type(mpishmem_rt.world, MPI_COMM_TYPE_SHARED, 0,
                                         MPI_INFO_NULL, &mpishmem_rt.node));
    MPISHMEM_MPI(MPI_Comm_size(mpishmem_rt.node, &mpishmem_rt.node_size));
    MPISHMEM_MPI(MPI_Comm_rank(mpishmem_rt.node, &mpishmem_rt.node_rank));
    if (mpishmem_pe_map_of_comm(&mpishmem_rt.node_map, mpishmem_rt.node) != 0)
        mpishmem_fatal("shmem_init", "out of memory for the map of the %d PEs of this node",
                       mpishmem_rt.node_size);
}
