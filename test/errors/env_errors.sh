#!/bin/sh
# Environment variables read by shmem_init: malformed values stop the job
# with a message naming the variable, SMA_* aliases, values that differ
# between PEs, SHMEM_VERSION and SHMEM_INFO.
#   env_errors.sh PATH/TO/env_probe
# Environment from meson: LAUNCH, MPIEXEC, MPIEXEC_FLAGS, MPI_FLAVOR.
. "${MESON_SOURCE_ROOT:?}/test/harness/env_check.sh"
env_check_init "${1:?usage: env_errors.sh PROGRAM}"
unset SHMEM_SYMMETRIC_SIZE SMA_SYMMETRIC_SIZE SHMEM_DEBUG SMA_DEBUG \
      SHMEM_VERSION SMA_VERSION SHMEM_INFO SMA_INFO MPISHMEM_SHM MPISHMEM_YIELD MPISHMEM_BARRIER \
      MPISHMEM_PROGRESS_THREAD \
      SHMEM_ENABLE_CPU_SPACE SHMEM_ENABLE_GPU_SPACE

run() { env_run "$1"; }
mpmd() { env_mpmd "$1" "$2" "$3"; }

fits="env_probe: 2 MiB allocation succeeded"
full="env_probe: 2 MiB allocation failed"

# Malformed sizes.
for v in 12x abc 1.2.3 -1M; do
    want_status=fail want_err="mpishmem: shmem_init: SHMEM_SYMMETRIC_SIZE='$v' is not a valid size"
    run "SHMEM_SYMMETRIC_SIZE=$v"
done
want_status=fail want_err="mpishmem: shmem_init: SMA_SYMMETRIC_SIZE='lots' is not a valid size"
run "SMA_SYMMETRIC_SIZE=lots"

# Which variable sets the heap size, observed through exhaustion.
want_status=ok want_out="$fits"
run "SHMEM_SYMMETRIC_SIZE=4M"
want_status=ok want_out="$full"
run "SHMEM_SYMMETRIC_SIZE=1M"
want_status=ok want_out="$full"
run "SMA_SYMMETRIC_SIZE=1M"
want_status=ok want_out="$fits"
run "SMA_SYMMETRIC_SIZE=4M"
want_status=ok want_out="$fits"
run "SHMEM_SYMMETRIC_SIZE=4M SMA_SYMMETRIC_SIZE=1M"
want_status=ok want_out="$full"
run "SHMEM_SYMMETRIC_SIZE=1M SMA_SYMMETRIC_SIZE=4M"
# A malformed SMA_ value is not even read when SHMEM_ is set.
want_status=ok want_out="$fits"
run "SHMEM_SYMMETRIC_SIZE=2.5M SMA_SYMMETRIC_SIZE=junk"
want_status=ok want_out="$fits"
run "SHMEM_SYMMETRIC_SIZE=2097152"

# A heap too small for anything starts, and the first failing allocation
# says what the heap size is, without SHMEM_DEBUG (docs/environment.md).
for size in 0 1000; do
    for shm in 1 0; do
        want_status=ok want_out="$full"
        want_err="mpishmem: shmem_malloc: warning: symmetric heap exhausted: 2097152 bytes requested, but the heap is $size bytes in all (set by SHMEM_SYMMETRIC_SIZE)"
        run "SHMEM_SYMMETRIC_SIZE=$size MPISHMEM_SHM=$shm"
    done
done
want_status=ok want_out="$full" want_err="but the heap is 1000 bytes in all (set by SMA_SYMMETRIC_SIZE)"
run "SMA_SYMMETRIC_SIZE=1000"

# The barrier route: checked in shmem_init with every other setting.
want_status=fail want_err="mpishmem: shmem_init: MPISHMEM_BARRIER='fast' is not one of auto, shm, mpi, shm-central, shm-dissemination"
run "MPISHMEM_BARRIER=fast"
want_status=ok want_out="$fits"
run "MPISHMEM_BARRIER=SHM-central SHMEM_SYMMETRIC_SIZE=4M"

# Booleans.
want_status=fail want_err="mpishmem: shmem_init: SHMEM_DEBUG='maybe' is not a boolean"
run "SHMEM_DEBUG=maybe"
want_status=fail want_err="mpishmem: shmem_init: SMA_DEBUG='2' is not a boolean"
run "SMA_DEBUG=2"
want_status=fail want_err="mpishmem: shmem_init: MPISHMEM_SHM='sometimes' is not a boolean"
run "MPISHMEM_SHM=sometimes"
want_status=ok want_out="$fits"
run "SHMEM_DEBUG=yes SMA_DEBUG=maybe SHMEM_SYMMETRIC_SIZE=4M"
# One rule for every boolean (docs/environment.md): a value that is not a
# true/false word stops shmem_init naming the variable, whatever it controls.
for pair in SHMEM_VERSION=maybe SHMEM_INFO=2 SMA_INFO=x SHMEM_ENABLE_CPU_SPACE=x \
            SHMEM_ENABLE_GPU_SPACE=enable MPISHMEM_YIELD=2 SHMEM_DEBUG=2 \
            MPISHMEM_PROGRESS_THREAD=maybe MPISHMEM_AMO_AM=sometimes; do
    want_status=fail want_err="mpishmem: shmem_init: ${pair%%=*}='${pair#*=}' is not a boolean"
    run "$pair"
done
# A value is echoed with its control characters escaped (\xNN): an ESC in
# it does not reach the terminal.
esc=$(printf '\033')
want_status=fail want_err="mpishmem: shmem_init: SHMEM_DEBUG='a\\x1b[2Jb' is not a boolean"
run "SHMEM_DEBUG=a${esc}[2Jb"
if grep -q -F "$esc" "$tmp/err"; then
    echo "FAIL: SHMEM_DEBUG with ESC: a raw ESC reached stderr"; failures=$((failures + 1))
fi
# Empty means unset: the default, not "off" and not an error.
want_status=ok want_out="$fits" deny_out="OpenSHMEM 1.6"
run "SHMEM_VERSION= SHMEM_INFO= SHMEM_SYMMETRIC_SIZE=4M"
want_status=ok want_out="$fits"
run "MPISHMEM_SHM= SHMEM_ENABLE_CPU_SPACE= SHMEM_SYMMETRIC_SIZE=4M"
want_status=ok want_lines=1 want_lines_text="OpenSHMEM 1.6"
run "SHMEM_VERSION=On"

# SHMEM_VERSION and SHMEM_INFO print from PE 0 only.
want_status=ok want_lines=1 want_lines_text="OpenSHMEM 1.6" deny_out="SHMEM_SYMMETRIC_SIZE"
run "SHMEM_VERSION=1"
want_status=ok want_lines=1 want_lines_text="OpenSHMEM 1.6"
run "SMA_VERSION=1"
want_status=ok deny_out="OpenSHMEM 1.6"
run "SHMEM_VERSION=0"
want_status=ok deny_out="OpenSHMEM 1.6"
run "MPISHMEM_SHM=1"
want_status=ok want_out="SHMEM_SYMMETRIC_SIZE|SHMEM_DEBUG|[3145728, from SHMEM_SYMMETRIC_SIZE]"
want_lines=1 want_lines_text="OpenSHMEM 1.6"
run "SHMEM_INFO=1 SHMEM_SYMMETRIC_SIZE=3M"
want_status=ok want_out="[1048576, from SMA_SYMMETRIC_SIZE]"
run "SMA_INFO=yes SMA_SYMMETRIC_SIZE=1M"
# The lanes in use: the setting, or none when unset and the program runs
# below SHMEM_THREAD_MULTIPLE (this one calls shmem_init) or PEs outnumber
# cores (test/setup/setup_windows counts the windows themselves).
want_status=ok want_out="MPISHMEM_CTX_LANES|independently [3]"
run "SHMEM_INFO=1 MPISHMEM_CTX_LANES=3"
want_status=ok want_out="independently [0: unset; lanes only under SHMEM_THREAD_MULTIPLE with a core per PE]"
run "-u MPISHMEM_CTX_LANES SHMEM_INFO=1"

# Settings that must agree across PEs, given per process through an MPMD
# launch (env_mpmd).
want_status=fail want_err="mpishmem: shmem_init: SHMEM_SYMMETRIC_SIZE must be the same on every PE, but values range from 1048576 to 2097152"
mpmd SHMEM_SYMMETRIC_SIZE 1M 2M
want_status=fail want_err="mpishmem: shmem_init: SHMEM_DEBUG must be the same on every PE"
mpmd SHMEM_DEBUG 1 0
want_status=fail want_err="mpishmem: shmem_init: MPISHMEM_SHM must be the same on every PE"
mpmd MPISHMEM_SHM 0 1
want_status=fail want_err="mpishmem: shmem_init: MPISHMEM_PROGRESS_THREAD (2: unset) must be the same on every PE"
mpmd MPISHMEM_PROGRESS_THREAD 1 0
# Equal values written differently are the same setting.
want_status=ok want_out="$fits"
mpmd SHMEM_SYMMETRIC_SIZE 4M 4096k

env_check_done
