/*
 * mpishmem: where the executable's .data and .bss lie.
 *
 * From the program headers of the main program (the first object
 * dl_iterate_phdr reports): its writable PT_LOAD segment, minus the part
 * PT_GNU_RELRO makes read-only after relocation.  Linker symbols
 * (__data_start, _end) would do in a static link, but inside
 * libmpishmem.so _end names the library's own end, not the program's.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include "heap.h"

struct range { uintptr_t lo, hi; };

static int main_program(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct range *r = arg;
    uintptr_t relro_end = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_GNU_RELRO)
            relro_end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
    }
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (relro_end > lo && relro_end < hi)
            lo = relro_end;
        if (r->lo == 0 || lo < r->lo)
            r->lo = lo;
        if (hi > r->hi)
            r->hi = hi;
    }
    return 1; /* the first object is the program: stop */
}

int mpishmem_exe_data_range(uintptr_t *lo, uintptr_t *hi)
{
    struct range r = {0, 0};
    dl_iterate_phdr(main_program, &r);
    *lo = r.lo;
    *hi = r.hi;
    return r.lo != 0 && r.hi > r.lo ? 0 : -1;
}
