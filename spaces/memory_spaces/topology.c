/*
 * mpishmem: which GPU is nearest to this PE's cores (hwloc).
 *
 * hwloc is loaded at run time, like the CUDA runtime, so programs keep
 * linking with `-lmpishmem` alone; its header (found by meson) types every
 * pointer we load.  A PCI device's locality is the cpuset of its nearest
 * non-I/O ancestor; a GPU is "near" when that cpuset meets the cores this
 * PE is bound to.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <dlfcn.h>
#include <stdio.h>
#include "devices.h"

#if MPISHMEM_HAVE_HWLOC
#include <hwloc.h>

#define HWLOC_FUNCS(X)                                                                       \
    X(hwloc_get_api_version)                                                                 \
    X(hwloc_topology_init)                                                                   \
    X(hwloc_topology_set_io_types_filter)                                                    \
    X(hwloc_topology_load)                                                                   \
    X(hwloc_topology_destroy)                                                                \
    X(hwloc_get_type_depth)                                                                  \
    X(hwloc_get_nbobjs_by_depth)                                                             \
    X(hwloc_get_obj_by_depth)                                                                \
    X(hwloc_get_cpubind)                                                                     \
    X(hwloc_bitmap_alloc)                                                                    \
    X(hwloc_bitmap_free)                                                                     \
    X(hwloc_bitmap_intersects)

#define DECLARE(name) static __typeof__(&name) p_##name;
HWLOC_FUNCS(DECLARE)

static int load(void)
{
    static int state; /* 0 untried, 1 loaded, -1 failed */
    if (state != 0)
        return state;
    state = -1;
    void *h = dlopen("libhwloc.so.15", RTLD_NOW | RTLD_LOCAL);
    if (h == NULL)
        h = dlopen("libhwloc.so", RTLD_NOW | RTLD_LOCAL);
    if (h == NULL)
        return state;
    state = 1;
#define LOAD(name)                                                                           \
    if ((*(void **)&p_##name = dlsym(h, #name)) == NULL)                                     \
        state = -1;
    HWLOC_FUNCS(LOAD)
    /* The 2.x ABI (I/O filters, PCI attributes) is what we were built for. */
    if (state == 1 && (p_hwloc_get_api_version() >> 16) != (HWLOC_API_VERSION >> 16))
        state = -1;
    if (state < 0)
        dlclose(h);
    return state;
}

static int is_gpu_class(const hwloc_obj_t o)
{
    return (o->attr->pcidev.class_id >> 8) == 0x03; /* display controllers (VGA, 3D) */
}

int mpishmem_topology_nearest(const char (*busids)[32], int n, int node_rank,
                              int *gpu_pci_count, char *how, size_t how_len)
{
    *gpu_pci_count = -1;
    if (load() < 0) {
        snprintf(how, how_len, "hwloc 2 could not be loaded");
        return -1;
    }
    hwloc_topology_t topo;
    if (p_hwloc_topology_init(&topo) != 0)
        return -1;
    p_hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    int chosen = -1;
    hwloc_bitmap_t mine = p_hwloc_bitmap_alloc();
    if (p_hwloc_topology_load(topo) != 0 || mine == NULL ||
        p_hwloc_get_cpubind(topo, mine, HWLOC_CPUBIND_PROCESS) != 0) {
        snprintf(how, how_len, "hwloc could not read the topology or this PE's binding");
        goto out;
    }
    int depth = p_hwloc_get_type_depth(topo, HWLOC_OBJ_PCI_DEVICE);
    unsigned npci = depth == HWLOC_TYPE_DEPTH_UNKNOWN ? 0 : p_hwloc_get_nbobjs_by_depth(topo, depth);
    int near[64], n_near = 0;
    *gpu_pci_count = 0;
    for (unsigned i = 0; i < npci; i++)
        *gpu_pci_count += is_gpu_class(p_hwloc_get_obj_by_depth(topo, depth, i));
    for (int g = 0; g < n && g < 64; g++) {
        unsigned dom, bus, dev, fn;
        if (sscanf(busids[g], "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
            continue;
        for (unsigned i = 0; i < npci; i++) {
            hwloc_obj_t o = p_hwloc_get_obj_by_depth(topo, depth, i);
            struct hwloc_pcidev_attr_s *a = &o->attr->pcidev;
            if (a->domain != dom || a->bus != bus || a->dev != dev || a->func != fn)
                continue;
            hwloc_obj_t anc = o->parent;
            while (anc && anc->cpuset == NULL)
                anc = anc->parent;
            if (anc && p_hwloc_bitmap_intersects(anc->cpuset, mine))
                near[n_near++] = g;
            break;
        }
    }
    if (n_near > 0) {
        chosen = near[node_rank % n_near];
        snprintf(how, how_len, "nearest to this PE's cores (%d of %d GPUs local, hwloc)",
                 n_near, n);
    } else {
        snprintf(how, how_len, "hwloc found no GPU local to this PE's cores");
    }
out:
    if (mine)
        p_hwloc_bitmap_free(mine);
    p_hwloc_topology_destroy(topo);
    return chosen;
}

#else

int mpishmem_topology_nearest(const char (*busids)[32], int n, int node_rank,
                              int *gpu_pci_count, char *how, size_t how_len)
{
    (void)busids, (void)n, (void)node_rank;
    *gpu_pci_count = -1;
    snprintf(how, how_len, "built without hwloc headers");
    return -1;
}

#endif
