/*
 * mpishmem: the part of the CUDA runtime API the library calls.
 *
 * With the toolkit's headers (MPISHMEM_CUDA_HEADERS) they are the real
 * declarations; without them, the subset below, as the CUDA documentation
 * gives it (error codes are an int-sized enum, cudaSuccess is 0, the
 * memcpy kinds and memory types are numbered as here).  The stand-in
 * runtime of the tests (test/cuda_standin) includes this header too, so it
 * implements exactly these types.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_CUDA_API_H
#define MPISHMEM_CUDA_API_H

#include <stddef.h>

#if MPISHMEM_CUDA_HEADERS
#include <cuda_runtime_api.h>
#else
typedef int cudaError_t;
enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};
enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3,
};
struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
    long reserved[8];
};
typedef struct cudaIpcMemHandle_st {
    char reserved[64];
} cudaIpcMemHandle_t;
typedef struct CUstream_st *cudaStream_t;
#define cudaSuccess 0
#define cudaErrorInvalidValue 1
#define cudaErrorMemoryAllocation 2
#define cudaErrorInvalidDevice 101
#define cudaErrorNoDevice 100
#define cudaErrorInvalidResourceHandle 400
#define cudaStreamNonBlocking 0x01
#define cudaIpcMemLazyEnablePeerAccess 0x01
#endif

/* name, return type, parameter types: every function the library loads. */
#define MPISHMEM_CUDA_FUNCS(X)                                                               \
    X(cudaGetDeviceCount, cudaError_t, (int *))                                              \
    X(cudaGetDevice, cudaError_t, (int *))                                                   \
    X(cudaSetDevice, cudaError_t, (int))                                                     \
    X(cudaMalloc, cudaError_t, (void **, size_t))                                            \
    X(cudaFree, cudaError_t, (void *))                                                       \
    X(cudaMallocHost, cudaError_t, (void **, size_t))                                        \
    X(cudaFreeHost, cudaError_t, (void *))                                                   \
    X(cudaMemsetAsync, cudaError_t, (void *, int, size_t, cudaStream_t))                     \
    X(cudaMemcpyAsync, cudaError_t, (void *, const void *, size_t, enum cudaMemcpyKind,      \
                                     cudaStream_t))                                          \
    X(cudaStreamCreateWithFlags, cudaError_t, (cudaStream_t *, unsigned int))                \
    X(cudaStreamDestroy, cudaError_t, (cudaStream_t))                                        \
    X(cudaStreamSynchronize, cudaError_t, (cudaStream_t))                                    \
    X(cudaPointerGetAttributes, cudaError_t, (struct cudaPointerAttributes *, const void *)) \
    X(cudaIpcGetMemHandle, cudaError_t, (cudaIpcMemHandle_t *, void *))                      \
    X(cudaIpcOpenMemHandle, cudaError_t, (void **, cudaIpcMemHandle_t, unsigned int))        \
    X(cudaIpcCloseMemHandle, cudaError_t, (void *))                                          \
    X(cudaDeviceGetPCIBusId, cudaError_t, (char *, int, int))                                \
    X(cudaMemGetInfo, cudaError_t, (size_t *, size_t *))                                     \
    X(cudaGetLastError, cudaError_t, (void))                                                 \
    X(cudaGetErrorString, const char *, (cudaError_t))

#endif
