/*
 * Uses spec_weak_lib.c: with TOOL, this file is a tool whose strong
 * sample_scale must win over the library's weak one and can still reach the
 * library's code as psample_scale; without TOOL the weak name must reach
 * the library's code.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>

int sample_scale(int x);
int psample_scale(int x);

#ifdef TOOL
static int calls;
int sample_scale(int x)
{
    calls++;
    return psample_scale(x) + 1;
}
#define EXPECTED (3 * 5 + 1)
#else
static int calls = 1;
#define EXPECTED (3 * 5)
#endif

int main(void)
{
    int r = sample_scale(5);
    if (r != EXPECTED || calls != 1) {
        fprintf(stderr, "spec_weak: got %d (expected %d), tool calls %d\n", r, EXPECTED, calls);
        return 1;
    }
    return 0;
}
