/*
 * Stand-in CUDA runtime: what happens when the CPU touches device memory.
 *
 * Strict (the default): the fault names the address and its allocation,
 * prints a backtrace and aborts; the test fails, as the program would on a
 * GPU.  In program-access mode (standin_control.h), a fault by a thread
 * that is not inside the library is a program's access to memory it may
 * use like managed memory: that one instruction runs with the page opened
 * (single-stepped with the trap flag), then the page is closed again.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include "standin.h"
#include "standin_control.h"

#define PAGE 4096u
#define TRAP_FLAG 0x100

static struct sigaction prev_segv, prev_trap;
static int (*library_query)(void);
static int step_lock;                 /* one single-stepped access at a time */
static __thread char *step_pages[4];  /* pages this thread's instruction opened */
static __thread int step_count;

void standin_set_library_query(int (*in_library)(void))
{
    library_query = in_library;
}

static void say(const char *s)
{
    ssize_t w = write(2, s, strlen(s));
    (void)w;
}

static void __attribute__((noreturn)) violation(void *addr, const region_t *r)
{
    char msg[400];
    snprintf(msg, sizeof msg,
             "stand-in CUDA runtime: pid %d: the CPU touched device memory at %p (byte %zu "
             "of a %zu-byte %s on device %d): a GPU would fault here.  The library (or a "
             "non-GPU-aware MPI it called) must move device memory with the runtime's "
             "copies.\n",
             (int)getpid(), addr, (size_t)((char *)addr - r->dev), r->user_size,
             r->kind == REGION_IPC ? "IPC mapping of another process's allocation"
                                   : "cudaMalloc allocation",
             r->device);
    say(msg);
    void *frames[48];
    int n = backtrace(frames, 48);
    backtrace_symbols_fd(frames, n, 2);
    signal(SIGABRT, SIG_DFL);
    abort();
}

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
    region_t *r = standin_find(si->si_addr);
    if (r == NULL || r->kind == REGION_PINNED) {
        /* Not device memory: whoever handled it before us, or the default
         * (the instruction faults again once we return). */
        (void)sig, (void)ctx;
        sigaction(SIGSEGV, &prev_segv, NULL);
        return;
    }
    int program = library_query != NULL && !library_query();
    if (!program || step_count == 4)
        violation(si->si_addr, r);
    if (step_count == 0)
        while (__atomic_exchange_n(&step_lock, 1, __ATOMIC_ACQUIRE))
            ;
    char *page = (char *)((uintptr_t)si->si_addr & ~(uintptr_t)(PAGE - 1));
    mprotect(page, PAGE, PROT_READ | PROT_WRITE);
    step_pages[step_count++] = page;
    ((ucontext_t *)ctx)->uc_mcontext.gregs[REG_EFL] |= TRAP_FLAG;
}

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
    ucontext_t *uc = ctx;
    if (step_count == 0) {
        sigaction(SIGTRAP, &prev_trap, NULL);
        if (prev_trap.sa_flags & SA_SIGINFO && prev_trap.sa_sigaction)
            prev_trap.sa_sigaction(sig, si, ctx);
        else
            raise(SIGTRAP);
        return;
    }
    uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)TRAP_FLAG;
    if (!standin_access_allowed())
        for (int i = 0; i < step_count; i++)
            mprotect(step_pages[i], PAGE, PROT_NONE);
    step_count = 0;
    __atomic_store_n(&step_lock, 0, __ATOMIC_RELEASE);
}

static void install(int sig, void (*fn)(int, siginfo_t *, void *), struct sigaction *prev)
{
    struct sigaction now;
    sigaction(sig, NULL, &now);
    if ((now.sa_flags & SA_SIGINFO) && now.sa_sigaction == fn)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fn;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, prev);
}

void standin_fault_install(void)
{
    static int warmed;
    if (!warmed++) {
        void *f[2];
        backtrace(f, 2); /* loads the unwinder now, not inside the handler */
    }
    install(SIGSEGV, on_segv, &prev_segv);
    install(SIGTRAP, on_trap, &prev_trap);
}
