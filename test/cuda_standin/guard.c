/*
 * The library guard of the stand-in CUDA runtime (standin_control.h):
 * while a thread of this process runs inside the library, device memory is
 * closed to the CPU; while none does, the program may touch it like
 * managed memory.  The generated wrappers (gen_guard.py) call enter and
 * leave around every OpenSHMEM routine.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

void mpishmem_guard_enter(void);
void mpishmem_guard_leave(void);

static __thread int inside;
static int threads_inside;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void (*set_access)(int);

static int in_library(void)
{
    return inside > 0;
}

/* The runtime's controls, once the library has loaded it. */
static int controls(void)
{
    if (set_access)
        return 1;
    const char *path = getenv("MPISHMEM_CUDART");
    void *h = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
    if (h == NULL)
        return 0;
    void (*set_query)(int (*)(void));
    *(void **)&set_query = dlsym(h, "standin_set_library_query");
    *(void **)&set_access = dlsym(h, "standin_program_access");
    if (set_query == NULL || set_access == NULL)
        return (set_access = NULL), 0;
    set_query(in_library);
    return 1;
}

void mpishmem_guard_enter(void)
{
    if (inside++ > 0)
        return;
    pthread_mutex_lock(&lock);
    if (threads_inside++ == 0 && controls())
        set_access(0);
    pthread_mutex_unlock(&lock);
}

void mpishmem_guard_leave(void)
{
    if (--inside > 0)
        return;
    pthread_mutex_lock(&lock);
    if (--threads_inside == 0 && controls())
        set_access(1);
    pthread_mutex_unlock(&lock);
}
