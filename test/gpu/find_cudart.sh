# Sourced by test/gpu/real_gpu.sh and bench/gpu_bench.sh: unless
# MPISHMEM_CUDART is set, exports the first CUDA runtime found (the
# toolkit's under CUDA_HOME, default /usr/local/cuda, then the linker
# cache), so that the library and the programs' own CUDA calls load the
# same one.  Leaves it unset when none is found.
if [ -z "${MPISHMEM_CUDART:-}" ]; then
    for f in "${CUDA_HOME:-/usr/local/cuda}/lib64/libcudart.so" \
             $(ldconfig -p 2>/dev/null | awk '/libcudart\.so/ {print $NF}'); do
        if [ -e "$f" ]; then
            export MPISHMEM_CUDART="$f"
            break
        fi
    done
fi
