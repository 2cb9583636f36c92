/*
 * Tutorial step 6 (docs/tutorial.md): a shared work queue and a lock.
 *
 * The job: for every start value below TASKS * BLOCK, how many steps does
 * the Collatz rule (n -> n / 2 if even, 3n + 1 if odd) take to reach 1?
 * Find the longest chain.  The blocks of start values are tasks, and some
 * cost much more than others, so instead of dealing them out in advance
 * every PE takes the next task number from a counter on PE 0 with
 * shmem_int_atomic_fetch_inc: no two PEs get the same number, and a PE
 * that finishes early simply takes more.
 *
 * The best chain so far is two numbers on PE 0 (start, steps); reading
 * and replacing both must not interleave with another PE doing the same,
 * so it happens under a lock (shmem_set_lock / shmem_clear_lock).
 * Which PE did which task changes from run to run; the answer does not.
 *
 *   oshcc 06_work_queue.c -o work_queue && oshrun -n 4 ./work_queue
 */
#include <stdio.h>
#include <shmem.h>

#define TASKS 100
#define BLOCK 1000

static int next_task;             /* on PE 0: the queue's head */
static long lock;                 /* a lock is a symmetric long, zero at start */
static long best[2];              /* on PE 0: start value and steps of the best chain */
static int done[TASKS];           /* on PE 0: which PE ran each task, plus 1 */

static int collatz_steps(long v)
{
    int steps = 0;
    while (v != 1) {
        v = v % 2 ? 3 * v + 1 : v / 2;
        steps++;
    }
    return steps;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();

    for (;;) {
        int task = shmem_int_atomic_fetch_inc(&next_task, 0);   /* take a ticket */
        if (task >= TASKS)
            break;                                             /* the queue is empty */
        long start = 0;
        int steps = -1;
        for (long v = (long)task * BLOCK + 1; v <= (long)(task + 1) * BLOCK; v++) {
            int s = collatz_steps(v);
            if (s > steps)
                steps = s, start = v;                          /* first of equals wins */
        }
        shmem_int_p(&done[task], me + 1, 0);

        shmem_set_lock(&lock);                                  /* one PE at a time */
        long best_start = shmem_long_g(&best[0], 0), best_steps = shmem_long_g(&best[1], 0);
        if (steps > best_steps || (steps == best_steps && start < best_start)) {
            long rec[2] = {start, steps};
            shmem_long_put(best, rec, 2, 0);
        }
        shmem_clear_lock(&lock);      /* also completes the put before the next PE enters */
    }
    shmem_barrier_all();              /* every task is finished and reported */

    if (me == 0) {
        int missing = 0;
        for (int t = 0; t < TASKS; t++)
            missing += done[t] == 0;
        printf("%d tasks of %d start values shared by %d PEs, %d not done\n", TASKS, BLOCK, n,
               missing);
        printf("longest chain for start values 1 to %d: from %ld, %ld steps\n", TASKS * BLOCK,
               best[0], best[1]);
    }
    shmem_finalize();
    return 0;
}
