/* A put's copy (mpishmem_store_once, rma_path.h and store_once.c) stores
 * every destination byte exactly once, for every size to 5 KiB and every
 * alignment class that picks a different route.  Deterministic: the
 * destination page is read-only, so each store faults; the handler opens
 * the page and single-steps the store (x86 trap flag), then the trap
 * handler finds the bytes the store changed, counts them and clears them
 * back to 0 (so a second store to a byte changes it again and counts
 * twice) and closes the page.  x86-64 Linux only; elsewhere it skips. */
#define _GNU_SOURCE /* REG_EFL */
#include <check.h>
#include <stdlib.h>
#if defined(__x86_64__) && defined(__linux__)
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include "mpi_backend/data_path/rma_path.h"

#define SPAN (3 * 4096) /* up to 5 KiB + 63 from a page offset < 4096 */
#define MAX_N 5200
#define TRAP_FLAG 0x100

static unsigned char *dst; /* SPAN + a page, the copy lands inside */
static unsigned char times[SPAN];
static int faults;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)si;
    faults++;
    mprotect(dst, SPAN, PROT_READ | PROT_WRITE);
    ((ucontext_t *)ctx)->uc_mcontext.gregs[REG_EFL] |= TRAP_FLAG;
}

/* After one store: every byte now nonzero was stored by it; count and clear. */
static void on_trap(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)si;
    for (size_t i = 0; i < SPAN; i++)
        if (dst[i] != 0) {
            times[i]++;
            dst[i] = 0;
        }
    mprotect(dst, SPAN, PROT_READ);
    ((ucontext_t *)ctx)->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)TRAP_FLAG;
}

static void handle(int sig, void (*fn)(int, siginfo_t *, void *))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fn;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(sig, &sa, NULL), 0);
}

/* Copies n nonzero bytes to dst + doff from a source at soff; checks each
 * byte of the destination was stored once and nothing else was. */
static void check_copy(const unsigned char *srcpage, size_t doff, size_t soff, size_t n)
{
    memset(times, 0, sizeof times);
    mprotect(dst, SPAN, PROT_READ | PROT_WRITE);
    memset(dst, 0, SPAN);
    mprotect(dst, SPAN, PROT_READ);
    mpishmem_store_once(dst + doff, srcpage + soff, n);
    mprotect(dst, SPAN, PROT_READ | PROT_WRITE);
    for (size_t i = 0; i < SPAN; i++) {
        int want = i >= doff && i < doff + n;
        if (times[i] != want)
            ck_abort_msg("copy of %zu bytes, dst offset %zu, src offset %zu: byte %zu "
                         "stored %d times", n, doff, soff, i - doff, times[i]);
    }
}

START_TEST(test_each_byte_once)
{
    dst = mmap(NULL, SPAN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    /* Page-aligned, so the offsets below set the distance modulo 4 KiB. */
    unsigned char *src = mmap(NULL, MAX_N + 8192, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(dst, MAP_FAILED);
    ck_assert_ptr_ne(src, MAP_FAILED);
    for (size_t i = 0; i < MAX_N + 8192; i++)
        src[i] = (unsigned char)(i % 251 + 1); /* never 0 */
    handle(SIGSEGV, on_segv);
    handle(SIGTRAP, on_trap);
    /* Destination offsets: aligned, and 1-63 past the source modulo 4 KiB
     * (the aliased route); sizes around every boundary of the routes. */
    static const size_t offs[][2] = {{0, 0}, {16, 16}, {5, 0}, {0, 40}, {33, 1}};
    for (size_t o = 0; o < sizeof offs / sizeof offs[0]; o++) {
        for (size_t n = 0; n <= 300; n++)
            check_copy(src, offs[o][0], offs[o][1], n);
        static const size_t big[] = {511, 512, 513, 2047, 2048, 2111, 2112, 2113, 4096, 5000};
        for (size_t b = 0; b < sizeof big / sizeof big[0]; b++)
            check_copy(src, offs[o][0], offs[o][1], big[b]);
    }
    ck_assert_int_gt(faults, 0);
    signal(SIGSEGV, SIG_DFL);
    signal(SIGTRAP, SIG_DFL);
    munmap(dst, SPAN);
    munmap(src, MAX_N + 8192);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("store_once");
    TCase *t = tcase_create("store_once");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_each_byte_once);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
#else
int main(void)
{
    return 77; /* skipped: needs x86-64 Linux's trap flag */
}
#endif
