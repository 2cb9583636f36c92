/*
 * The two ways the spec shows for a library to provide a routine under its
 * profiling name with a weak public name: WEAK_PRAGMA selects
 * '#pragma weak', otherwise the weak alias attribute.  (mpishmem itself
 * adds its aliases after compiling: docs/tools.md.)
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifdef WEAK_PRAGMA
#pragma weak sample_scale = psample_scale
#endif

int psample_scale(int x);
int psample_scale(int x) { return 3 * x; }

#ifndef WEAK_PRAGMA
int sample_scale(int x) __attribute__((weak, alias("psample_scale")));
#endif
