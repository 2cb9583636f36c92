/*
 * The stand-in CUDA runtime itself: the GPU tests can only fail when the
 * library is wrong if the stand-in is strict.  Checks that a CPU load and
 * a CPU store of device memory stop the process (in a child), that a
 * device-to-device copy and a memset wait for a synchronization, that a
 * pageable host-to-device copy takes its snapshot at once, that a wrong
 * memcpy kind and a range past the allocation are refused, that streams
 * need their device current, and that IPC handles open in another process
 * and not in their own.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "standin.h"

static int failures;
#define EXPECT(c, what)                                                                    \
    do {                                                                                   \
        if (!(c)) {                                                                        \
            fprintf(stderr, "standin_selftest: %s (line %d)\n", what, __LINE__);           \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

/* A child that runs fn(p) must die by SIGABRT (the stand-in's stop). */
static void expect_stop(void (*fn)(volatile char *), void *p, const char *what)
{
    fflush(NULL);
    pid_t c = fork();
    if (c == 0) {
        int null = open("/dev/null", 1);
        dup2(null, 2);
        fn(p);
        _exit(0);
    }
    int st = 0;
    waitpid(c, &st, 0);
    EXPECT(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, what);
}

static void load(volatile char *p)
{
    (void)p[10];
}

static void store(volatile char *p)
{
    p[10] = 1;
}

int main(void)
{
    char *dev = NULL, *dev2 = NULL;
    EXPECT(cudaMalloc((void **)&dev, 1 << 20) == cudaSuccess, "cudaMalloc");
    EXPECT(cudaMalloc((void **)&dev2, 1 << 20) == cudaSuccess, "cudaMalloc");
    expect_stop(load, dev, "a CPU load of device memory was not stopped");
    expect_stop(store, dev, "a CPU store into device memory was not stopped");

    char h[64], back[64];
    memset(h, 'a', sizeof h);
    EXPECT(cudaMemcpy(dev, h, 64, cudaMemcpyHostToDevice) == cudaSuccess, "H2D");
    memset(h, 'b', sizeof h); /* the copy took its snapshot already */
    EXPECT(cudaDeviceSynchronize() == cudaSuccess, "sync");
    EXPECT(cudaMemcpy(back, dev, 64, cudaMemcpyDeviceToHost) == cudaSuccess, "D2H");
    EXPECT(back[0] == 'a' && back[63] == 'a', "pageable H2D did not snapshot its source");

    /* D2D and memset run only when something synchronizes with them. */
    cudaStream_t s;
    EXPECT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess, "stream");
    EXPECT(cudaMemcpyAsync(dev2, dev, 64, cudaMemcpyDeviceToDevice, s) == cudaSuccess, "D2D");
    char *shadow2 = standin_shadow_range(dev2, 64);
    EXPECT(shadow2[0] == 0, "a queued D2D copy ran before any synchronization");
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess && shadow2[0] == 'a',
           "stream synchronization did not run the copy");
    EXPECT(cudaMemset(dev2, 'z', 64) == cudaSuccess && shadow2[0] == 'a',
           "cudaMemset ran before any synchronization");
    EXPECT(cudaMemcpy(back, dev2, 64, cudaMemcpyDeviceToHost) == cudaSuccess && back[0] == 'z',
           "a synchronous D2H copy did not wait for the legacy stream");

    EXPECT(cudaMemcpy(dev, h, 64, cudaMemcpyDeviceToHost) != cudaSuccess,
           "a wrong memcpy kind was accepted");
    EXPECT(cudaMemcpy(back, dev + (1 << 20) - 8, 64, cudaMemcpyDeviceToHost) != cudaSuccess,
           "a copy past the allocation was accepted");
    if (standin_device_count() > 1) {
        cudaSetDevice(1);
        EXPECT(cudaMemcpyAsync(dev2, dev, 8, cudaMemcpyDeviceToDevice, s) != cudaSuccess,
               "a stream was used with another device current");
        cudaSetDevice(0);
    }

    struct cudaPointerAttributes a;
    EXPECT(cudaPointerGetAttributes(&a, dev + 5) == cudaSuccess && a.type == cudaMemoryTypeDevice,
           "device pointer attributes");
    EXPECT(cudaPointerGetAttributes(&a, h) == cudaSuccess && a.type == cudaMemoryTypeUnregistered,
           "host pointer attributes");

    /* IPC: not in the owner; in a child, the same bytes. */
    cudaIpcMemHandle_t ipc;
    void *opened = NULL;
    EXPECT(cudaIpcGetMemHandle(&ipc, dev) == cudaSuccess, "IPC handle");
    EXPECT(cudaIpcOpenMemHandle(&opened, ipc, 0) != cudaSuccess, "opened in its own process");
    fflush(NULL);
    pid_t c = fork();
    if (c == 0) {
        /* A child is another process: it may open the handle (the runtime
         * checks the process, not the address space it started from). */
        char got[64];
        if (cudaIpcOpenMemHandle(&opened, ipc, 0) != cudaSuccess)
            _exit(3);
        cudaMemcpy(got, opened, 64, cudaMemcpyDeviceToHost);
        _exit(got[0] == 'a' ? 0 : 4);
    }
    int st = 0;
    waitpid(c, &st, 0);
    EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "IPC open in another process");
    cudaStreamDestroy(s);
    cudaFree(dev2);
    cudaFree(dev);
    printf("standin_selftest: %s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
