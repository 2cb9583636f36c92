/*
 * `leftovers exit|global_exit|kill`: every kind of symmetric memory the
 * library makes (heap, an aligned block, global data written by every PE,
 * a memory space), then one way out: shmem_finalize, shmem_global_exit(5)
 * from the last PE, or the last PE killing itself with SIGKILL after
 * start-up (the others then wait in a barrier until the launcher stops
 * them).  Just before that, each PE writes the /dev/shm files it has
 * mapped or open (its own and MPI's) to $LEFTOVERS_LIST.PE, and
 * leftovers.sh checks that none of them is still there after the job.
 */
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include <shmem.h>

static long global_words[1024];

/* Appends every /dev/shm path in `file` (maps or a readlink listing) to out. */
static void shm_paths(const char *file, FILE *out)
{
    FILE *f = fopen(file, "r");
    char line[4096];
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        char *p = strstr(line, "/dev/shm/");
        if (p != NULL)
            fputs(p, out);
    }
    if (f != NULL)
        fclose(f);
}

static void list_shm_files(int me)
{
    const char *base = getenv("LEFTOVERS_LIST");
    if (base == NULL)
        return;
    char name[4096];
    snprintf(name, sizeof name, "%s.%d", base, me);
    FILE *out = fopen(name, "w");
    if (out == NULL) {
        perror(name);
        shmem_global_exit(2);
    }
    shm_paths("/proc/self/maps", out);
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        char link[512], target[4096];
        snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n > 0 && (target[n] = '\0', strncmp(target, "/dev/shm/", 9) == 0))
            fprintf(out, "%s\n", target);
    }
    if (d != NULL)
        closedir(d);
    fclose(out);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s exit|global_exit|kill\n", argv[0]);
        return 2;
    }
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), last = n - 1;
    long *heap = shmem_malloc(1 << 20);
    long *aligned = shmem_align(1 << 16, 4096);
    shmem_space_config_t config = {.device_type = SHMEM_DEVICE_CPU, .size = 1 << 20,
                                   .flags = SHMEM_SPACE_FLAG_DEFAULT};
    shmem_space_t space;
    shmem_team_t team;
    if (heap == NULL || aligned == NULL || shmem_space_create(&config, &space, &team) != 0) {
        fprintf(stderr, "PE %d: could not make the symmetric memory\n", me);
        shmem_global_exit(2);
    }
    long *in_space = shmem_space_malloc(space, 4096);
    shmem_long_p(&global_words[me], me, (me + 1) % n);
    shmem_long_p(heap, me, (me + 1) % n);
    shmem_long_p(in_space, me, (me + 1) % n);
    shmem_barrier_all();
    if (global_words[(me + n - 1) % n] != (me + n - 1) % n || heap[0] != (me + n - 1) % n ||
        in_space[0] != (me + n - 1) % n) {
        fprintf(stderr, "PE %d: wrong data\n", me);
        shmem_global_exit(3);
    }
    list_shm_files(me);
    shmem_barrier_all();
    if (me == last && strcmp(argv[1], "global_exit") == 0)
        shmem_global_exit(5);
    if (me == last && strcmp(argv[1], "kill") == 0)
        raise(SIGKILL);
    if (strcmp(argv[1], "exit") != 0) {
        shmem_barrier_all(); /* stopped here by the launcher */
        printf("PE %d was not stopped\n", me);
        return 4;
    }
    shmem_space_free(space, in_space);
    shmem_team_destroy(team);
    shmem_space_destroy(space);
    shmem_free(aligned);
    shmem_free(heap);
    shmem_finalize();
    return 0;
}
