/*
 * mpishmem: how many cores the PEs of a node have, for the choice between
 * spinning and yielding (progress.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "progress.h"
#include "launcher_env.h"
#include "error.h"

/* CPUs the cgroup's quota allows (cgroup v2 cpu.max, or v1 cfs quota), or
 * 0 when there is no quota. */
static long cgroup_cpus(void)
{
    long quota = -1, period = 0;
    FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
    if (f != NULL) {
        char q[32];
        if (fscanf(f, "%31s %ld", q, &period) == 2 && q[0] != 'm')
            sscanf(q, "%ld", &quota);
        fclose(f);
    } else if ((f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "r")) != NULL) {
        if (fscanf(f, "%ld", &quota) != 1)
            quota = -1;
        fclose(f);
        if ((f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "r")) != NULL) {
            if (fscanf(f, "%ld", &period) != 1)
                period = 0;
            fclose(f);
        }
    }
    if (quota <= 0 || period <= 0)
        return 0;
    return (quota + period - 1) / period;
}

int mpishmem_launcher_oversubscribed(void)
{
    int local = mpishmem_launcher_local_size();
    cpu_set_t mine;
    if (local <= 1 || sched_getaffinity(0, sizeof mine, &mine) != 0)
        return 0;
    return local > CPU_COUNT(&mine);
}

int mpishmem_node_cores(MPI_Comm node)
{
    /* The union of the node's PEs' affinity masks: PEs bound one per core
     * each see one CPU, yet every PE has its own. */
    cpu_set_t mine, all;
    CPU_ZERO(&mine);
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        for (long c = 0; c < n && c < CPU_SETSIZE; c++)
            CPU_SET((int)c, &mine);
    }
    mpishmem_allreduce(&mine, &all, (int)sizeof mine, MPI_BYTE, MPI_BOR, node);
    long cores = CPU_COUNT(&all);
    long quota = cgroup_cpus();
    if (quota > 0 && quota < cores)
        cores = quota;
    return cores > 0 ? (int)cores : 1;
}

/* The path of this process's CPU cgroup (v1 "cpu" controller, else v2),
 * "/" when unknown. */
static void cpu_cgroup(char *path, size_t len)
{
    char line[512];
    snprintf(path, len, "/");
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (f == NULL)
        return;
    while (fgets(line, sizeof line, f) != NULL) {
        char *ctl = strchr(line, ':'), *at = ctl ? strchr(ctl + 1, ':') : NULL;
        if (at == NULL)
            continue;
        *at++ = '\0';
        at[strcspn(at, "\n")] = '\0';
        int v2 = ctl[1] == '\0', cpu = 0;
        for (char *c = strtok(ctl + 1, ","); c != NULL; c = strtok(NULL, ","))
            cpu |= strcmp(c, "cpu") == 0;
        if (cpu || v2)
            snprintf(path, len, "%s", at);
        if (cpu)
            break;
    }
    fclose(f);
}

static unsigned long long hash(const char *s)
{
    unsigned long long h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* The kernel shares CPU time first between groups: a CPU cgroup other
 * than the root, else (autogroups on) the session's autogroup.  The name
 * of the group, hashed. */
unsigned long long mpishmem_sched_group_key(void)
{
    char path[256], group[64] = "";
    cpu_cgroup(path, sizeof path);
    if (strcmp(path, "/") != 0)
        return hash(path);
    FILE *f = fopen("/proc/sys/kernel/sched_autogroup_enabled", "r");
    int on = 0;
    if (f != NULL) {
        on = fgetc(f) == '1';
        fclose(f);
    }
    if (on && (f = fopen("/proc/self/autogroup", "r")) != NULL) {
        if (fscanf(f, "%63s", group) != 1)
            group[0] = '\0';
        fclose(f);
    }
    return hash(group);
}
