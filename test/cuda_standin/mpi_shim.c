/*
 * A GPU-aware MPI, emulated for the stand-in CUDA runtime (standin.h).
 *
 * Linked into the GPU tests, it interposes on the MPI calls that take
 * buffers (PMPI).  STANDIN_MPI_GPU_AWARE picks what MPI is:
 *   unset or 0   an ordinary MPI: buffers pass through untouched, so a
 *                device pointer handed to MPI is a CPU access inside MPI
 *                and the stand-in stops the process (as a real MPI would
 *                crash); MPIX_Query_cuda_support says 0;
 *   1            a GPU-aware MPI: a device buffer (or window base) is
 *                replaced by the stand-in's own view of that memory before
 *                MPI sees it.  This is how a GPU-aware MPI reads device
 *                memory without CPU loads by the library: the library's
 *                pointers stay device pointers, still closed to the CPU,
 *                so a CPU access by the library still faults exactly as in
 *                mode 0.  MPIX_Query_cuda_support says 1;
 *   broken-rma   MPI says it is GPU-aware (MPIX_Query_cuda_support says 1,
 *                collectives and messages work on device memory) but its
 *                one-sided operations miss device memory: a window over
 *                device memory is made over other host memory, so puts and
 *                gets there go nowhere useful.  The library must find out
 *                before it trusts RMA on device windows (issue 18,
 *                defect 6).
 * It also records which CUDA device was current when MPI started
 * (standin_mpi_init_device), for the device-selection test.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int standin_mpi_init_device(void);

static int mode = -1;
static void *(*shadow_of)(const void *);
static int device_at_init = -2; /* -2: MPI not started here; -1: no CUDA device chosen */

static void *runtime(void)
{
    const char *path = getenv("MPISHMEM_CUDART");
    return path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
}

static int aware_mode(void)
{
    if (mode < 0) {
        const char *v = getenv("STANDIN_MPI_GPU_AWARE");
        mode = v == NULL || !strcmp(v, "0") ? 0 : !strcmp(v, "broken-rma") ? 2 : 1;
    }
    return mode;
}

/* The memory MPI touches for buffer p: the stand-in's view of device
 * memory when MPI is GPU-aware, else p itself. */
static void *view(const void *p)
{
    if (aware_mode() == 0 || p == NULL || p == MPI_IN_PLACE || p == MPI_BOTTOM)
        return (void *)p;
    if (shadow_of == NULL) {
        void *h = runtime();
        if (h == NULL)
            return (void *)p; /* no runtime loaded yet: no device memory exists */
        *(void **)&shadow_of = dlsym(h, "standin_shadow");
        if (shadow_of == NULL)
            return (void *)p;
    }
    void *s = shadow_of(p);
    return s ? s : (void *)p;
}
#define V(p) view(p)

static void note_device(void)
{
    void *h = runtime();
    int (*get)(int *) = NULL;
    if (h)
        *(void **)&get = dlsym(h, "cudaGetDevice");
    int d = -1;
    device_at_init = get && get(&d) == 0 ? d : -1;
}

int standin_mpi_init_device(void)
{
    return device_at_init;
}

int MPI_Init(int *argc, char ***argv)
{
    note_device();
    return PMPI_Init(argc, argv);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    note_device();
    return PMPI_Init_thread(argc, argv, required, provided);
}

#ifdef MPICH_VERSION
int MPIX_Query_cuda_support(void)
{
    return aware_mode() != 0;
}
#endif

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win *win)
{
    void *b = V(base);
    if (aware_mode() == 2 && b != base && size > 0)
        b = calloc(1, (size_t)size); /* RMA misses device memory (kept for the run) */
    return PMPI_Win_create(b, size, disp_unit, info, comm, win);
}

int MPI_Put(const void *o, int oc, MPI_Datatype ot, int r, MPI_Aint d, int tc,
            MPI_Datatype tt, MPI_Win w)
{
    return PMPI_Put(V(o), oc, ot, r, d, tc, tt, w);
}

int MPI_Get(void *o, int oc, MPI_Datatype ot, int r, MPI_Aint d, int tc, MPI_Datatype tt,
            MPI_Win w)
{
    return PMPI_Get(V(o), oc, ot, r, d, tc, tt, w);
}

int MPI_Rput(const void *o, int oc, MPI_Datatype ot, int r, MPI_Aint d, int tc,
             MPI_Datatype tt, MPI_Win w, MPI_Request *q)
{
    return PMPI_Rput(V(o), oc, ot, r, d, tc, tt, w, q);
}

int MPI_Rget(void *o, int oc, MPI_Datatype ot, int r, MPI_Aint d, int tc, MPI_Datatype tt,
             MPI_Win w, MPI_Request *q)
{
    return PMPI_Rget(V(o), oc, ot, r, d, tc, tt, w, q);
}

int MPI_Accumulate(const void *o, int oc, MPI_Datatype ot, int r, MPI_Aint d, int tc,
                   MPI_Datatype tt, MPI_Op op, MPI_Win w)
{
    return PMPI_Accumulate(V(o), oc, ot, r, d, tc, tt, op, w);
}

int MPI_Fetch_and_op(const void *o, void *res, MPI_Datatype t, int r, MPI_Aint d, MPI_Op op,
                     MPI_Win w)
{
    return PMPI_Fetch_and_op(V(o), V(res), t, r, d, op, w);
}

int MPI_Compare_and_swap(const void *o, const void *c, void *res, MPI_Datatype t, int r,
                         MPI_Aint d, MPI_Win w)
{
    return PMPI_Compare_and_swap(V(o), V(c), V(res), t, r, d, w);
}

int MPI_Send(const void *b, int c, MPI_Datatype t, int dst, int tag, MPI_Comm comm)
{
    return PMPI_Send(V(b), c, t, dst, tag, comm);
}

int MPI_Isend(const void *b, int c, MPI_Datatype t, int dst, int tag, MPI_Comm comm,
              MPI_Request *q)
{
    return PMPI_Isend(V(b), c, t, dst, tag, comm, q);
}

int MPI_Recv(void *b, int c, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    return PMPI_Recv(V(b), c, t, src, tag, comm, st);
}

int MPI_Irecv(void *b, int c, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *q)
{
    return PMPI_Irecv(V(b), c, t, src, tag, comm, q);
}

int MPI_Bcast(void *b, int c, MPI_Datatype t, int root, MPI_Comm comm)
{
    return PMPI_Bcast(V(b), c, t, root, comm);
}

int MPI_Ibcast(void *b, int c, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *q)
{
    return PMPI_Ibcast(V(b), c, t, root, comm, q);
}

int MPI_Allgather(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt,
                  MPI_Comm comm)
{
    return PMPI_Allgather(V(s), sc, st, V(r), rc, rt, comm);
}

int MPI_Iallgather(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt,
                   MPI_Comm comm, MPI_Request *q)
{
    return PMPI_Iallgather(V(s), sc, st, V(r), rc, rt, comm, q);
}

int MPI_Allgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int rc[],
                   const int d[], MPI_Datatype rt, MPI_Comm comm)
{
    return PMPI_Allgatherv(V(s), sc, st, V(r), rc, d, rt, comm);
}

int MPI_Iallgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int rc[],
                    const int d[], MPI_Datatype rt, MPI_Comm comm, MPI_Request *q)
{
    return PMPI_Iallgatherv(V(s), sc, st, V(r), rc, d, rt, comm, q);
}

int MPI_Allreduce(const void *s, void *r, int c, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    return PMPI_Allreduce(V(s), V(r), c, t, op, comm);
}

int MPI_Iallreduce(const void *s, void *r, int c, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                   MPI_Request *q)
{
    return PMPI_Iallreduce(V(s), V(r), c, t, op, comm, q);
}

int MPI_Alltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt,
                 MPI_Comm comm)
{
    return PMPI_Alltoall(V(s), sc, st, V(r), rc, rt, comm);
}

int MPI_Ialltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt,
                  MPI_Comm comm, MPI_Request *q)
{
    return PMPI_Ialltoall(V(s), sc, st, V(r), rc, rt, comm, q);
}

int MPI_Scan(const void *s, void *r, int c, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    return PMPI_Scan(V(s), V(r), c, t, op, comm);
}

int MPI_Iscan(const void *s, void *r, int c, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
              MPI_Request *q)
{
    return PMPI_Iscan(V(s), V(r), c, t, op, comm, q);
}

int MPI_Exscan(const void *s, void *r, int c, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    return PMPI_Exscan(V(s), V(r), c, t, op, comm);
}

int MPI_Iexscan(const void *s, void *r, int c, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                MPI_Request *q)
{
    return PMPI_Iexscan(V(s), V(r), c, t, op, comm, q);
}
