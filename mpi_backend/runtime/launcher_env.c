/*
 * mpishmem: the launcher's count of processes on this node
 * (launcher_env.h).  No MPI here: it runs before MPI starts, and the unit
 * tests link it alone.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include "env_read.h"
#include "launcher_env.h"

/* A positive decimal count with nothing after it, else 0. */
static long count_of(const char *v)
{
    if (v == NULL || !isdigit((unsigned char)*v))
        return 0;
    char *end;
    long n = strtol(v, &end, 10);
    return *end == '\0' && n > 0 && n <= INT_MAX ? n : 0;
}

int mpishmem_slurm_tasks_on_node(const char *list, long node)
{
    if (list == NULL || node < 0)
        return 0;
    long found = 0;
    /* The whole list is checked: a malformed one describes no node. */
    for (const char *p = list;; p++) {
        if (!isdigit((unsigned char)*p))
            return 0;
        char *end;
        long tasks = strtol(p, &end, 10), repeat = 1;
        p = end;
        if (p[0] == '(' && p[1] == 'x') {
            if (!isdigit((unsigned char)p[2]))
                return 0;
            repeat = strtol(p + 2, &end, 10);
            if (*end != ')' || repeat <= 0 || repeat > INT_MAX)
                return 0;
            p = end + 1;
        }
        if (tasks <= 0 || tasks > INT_MAX || (*p != ',' && *p != '\0'))
            return 0;
        if (node >= 0 && node < repeat)
            found = tasks;
        if (node >= 0)
            node -= repeat; /* once negative, found: no further overflow */
        if (*p == '\0')
            return (int)found; /* 0: fewer entries than nodes */
    }
}

static int slurm_step_local_size(void)
{
    /* SLURM_NODEID is this node's place in the step's node list, the order
     * of SLURM_STEP_TASKS_PER_NODE. */
    const char *step = mpishmem_env("SLURM_STEP_ID");
    const char *id = mpishmem_env("SLURM_NODEID");
    if (step == NULL || *step == '\0' || id == NULL || !isdigit((unsigned char)*id))
        return 0;
    char *end;
    long node = strtol(id, &end, 10);
    if (*end != '\0')
        return 0;
    const char *list = mpishmem_env("SLURM_STEP_TASKS_PER_NODE");
    if (list == NULL)
        list = mpishmem_env("SLURM_TASKS_PER_NODE"); /* srun sets it to the step's too */
    return mpishmem_slurm_tasks_on_node(list, node);
}

int mpishmem_launcher_local_size(void)
{
    static const char *const mpi_vars[] = {"MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE",
                                           "PMI_LOCAL_SIZE"};
    int seen = 0;
    for (size_t i = 0; i < sizeof mpi_vars / sizeof mpi_vars[0]; i++) {
        const char *v = mpishmem_env(mpi_vars[i]);
        long n = count_of(v);
        if (n > 0)
            return (int)n;
        seen |= v != NULL;
    }
    /* An MPI launcher started us, though its count is unusable: Slurm's
     * variables may describe another job (srun's shell, say). */
    return seen ? 0 : slurm_step_local_size();
}

int mpishmem_launcher_world_size(void)
{
    static const char *const vars[] = {"PMI_SIZE", "OMPI_COMM_WORLD_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        long n = count_of(mpishmem_env(vars[i]));
        if (n > 0)
            return (int)n;
    }
    return 0;
}

int mpishmem_launcher_spans_nodes(void)
{
    int local = mpishmem_launcher_local_size(), world = mpishmem_launcher_world_size();
    return local > 0 && world > local;
}
