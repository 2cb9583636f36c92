/*
 * mpishmem/shmem4py.h: build shmem4py (the Python bindings for OpenSHMEM)
 * against mpishmem, unchanged:
 *
 *   OSHCC="oshcc -include mpishmem/shmem4py.h" python3 setup.py build_ext --inplace
 *
 * shmem4py chooses the routines it binds by recognising an implementation
 * from macros that implementation's shmem.h defines (its src/libshmem.c);
 * a library it does not know gets 1.4-era replacements that clash with a
 * 1.5+ shmem.h.  mpishmem has all of OpenSHMEM 1.6, the feature set shmem4py
 * uses for Sandia OpenSHMEM (every routine, no workarounds), so this header
 * defines the two macros by which shmem4py recognises that library.  It is
 * meant for that build only: a program that includes it claims to be
 * compiled against Sandia OpenSHMEM's header.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MPISHMEM_SHMEM4PY_H
#define MPISHMEM_SHMEM4PY_H

#include <shmem.h>

#ifndef SHMEM_DEF_H
#define SHMEM_DEF_H 1
#endif
#ifndef SHMEM_FUNCTION_ATTRIBUTES
#define SHMEM_FUNCTION_ATTRIBUTES
#endif

#endif
