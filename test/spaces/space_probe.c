/*
 * Driven by spaces_env.sh: reports what shmem_init made of the spaces
 * environment, or makes one deliberate mistake for the script to check
 * the library's message.
 *   space_probe state | nonmember_rma | unfreed_destroy | wrong_free |
 *               mixed_buffers | team_outside
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>
#include <shmemx.h>

int mpishmem_space_check_buffers(const char *routine, shmem_team_t team, const void *a,
                                 const void *b);

static const char *team_name(shmem_team_t t)
{
    return t == SHMEM_TEAM_INVALID ? "invalid" : t == SHMEM_TEAM_WORLD ? "world" : "own";
}

static shmem_space_t make(size_t size, shmem_team_t *t)
{
    shmem_space_config_t c = {SHMEM_DEVICE_CPU, size, SHMEM_SPACE_FLAG_DEFAULT};
    shmem_space_t s = SHMEM_SPACE_INVALID;
    if (shmem_space_create(&c, &s, t) != 0)
        printf("space_probe: PE %d: create failed\n", shmem_my_pe());
    return s;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "state";
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_team_t t;
    if (strcmp(mode, "state") == 0) {
        shmem_device_type_t d = SHMEM_DEVICE_FPGA;
        shmem_space_get_device_type(SHMEM_SPACE_DEFAULT, &d);
        void *p = shmem_malloc((size_t)2 << 20);
        shmem_space_t s = make((size_t)1 << 20, &t);
        printf("space_probe: PE %d: default=%s cpu=%s gpu=%s team_cpu=%s team_gpu=%s "
               "alloc2M=%s dynamic_cpu=%s\n", me, d == SHMEM_DEVICE_CPU ? "CPU" : "GPU",
               shmem_space_is_available(SHMEM_SPACE_CPU) == 0 ? "available" : "unavailable",
               shmem_space_is_available(SHMEM_SPACE_GPU) == 0 ? "available" : "unavailable",
               team_name(SHMEM_TEAM_CPU), team_name(SHMEM_TEAM_GPU), p ? "ok" : "null",
               s != SHMEM_SPACE_INVALID ? "member" : "nonmember");
        shmem_free(p);
        if (s != SHMEM_SPACE_INVALID) {
            shmem_team_destroy(t);
            shmem_space_destroy(s);
        }
    } else if (strcmp(mode, "nonmember_rma") == 0) {
        /* PE 1 hides the CPU (set by the script): PE 0 puts to it. */
        shmem_space_t s = make((size_t)1 << 20, &t);
        if (me == 0) {
            long *x = shmem_space_malloc(s, sizeof(long));
            shmem_long_p(x, 1, 1);
        }
    } else if (strcmp(mode, "unfreed_destroy") == 0) {
        shmem_space_t s = make((size_t)1 << 20, &t);
        shmem_space_malloc(s, 64);
        shmem_team_destroy(t);
        shmem_space_destroy(s);
    } else if (strcmp(mode, "wrong_free") == 0) {
        shmem_team_t t2;
        shmem_space_t a = make((size_t)1 << 20, &t), b = make((size_t)1 << 20, &t2);
        void *p = shmem_space_malloc(a, 64);
        shmem_space_free(b, p);
    } else if (strcmp(mode, "mixed_buffers") == 0) {
        shmem_space_t a = make((size_t)1 << 20, &t);
        void *p = shmem_space_malloc(a, 64), *q = shmem_malloc(64);
        mpishmem_space_check_buffers("shmem_broadcastmem", SHMEM_TEAM_WORLD, p, q);
    } else if (strcmp(mode, "team_outside") == 0) {
        /* Odd PEs hide the CPU: the world team reaches outside the space. */
        shmem_space_t a = make((size_t)1 << 20, &t);
        /* Members pass space memory (and stop in the check); the others
         * pass global data (no collective allocation) and would wait in the
         * broadcast. */
        static char global_buf[64];
        void *p = a != SHMEM_SPACE_INVALID ? shmem_space_malloc(a, 64) : (void *)global_buf;
        shmem_broadcastmem(SHMEM_TEAM_WORLD, p, p, 64, 0);
    }
    printf("space_probe: PE %d of %d: done\n", me, n);
    shmem_finalize();
    return 0;
}
