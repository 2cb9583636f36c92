/*
 * Tutorial step 4 (docs/tutorial.md): a 2-D heat stencil with halo
 * exchange.
 *
 * A square plate of NY x NX cells: the top edge is held at 100 degrees,
 * the other edges at 0.  Each step, every inside cell becomes the average
 * of its four neighbours (Jacobi).  The rows are dealt out in blocks: PE i
 * owns rows lo..hi-1.  To update its first and last rows a PE needs one
 * row of each neighbouring PE: these "halo" rows sit just above and below
 * the owned block, and each step every PE puts its edge rows into its
 * neighbours' halos, then waits at a barrier.
 *
 * Two copies of the grid (even and odd steps) mean one barrier per step is
 * enough: a PE reads one copy and writes the other, and a fast neighbour
 * can only ever put into the copy this PE is not reading.
 *
 *   oshcc 04_heat.c -o heat && oshrun -n 4 ./heat
 */
#include <stdio.h>
#include <shmem.h>

#define NX 32          /* columns */
#define NY 24          /* rows, edges included */
#define STEPS 400

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (n > NY) {
        if (me == 0)
            printf("run at most %d PEs\n", NY);
        shmem_finalize();
        return 1;
    }
    int lo = me * NY / n, hi = (me + 1) * NY / n;   /* my rows: [lo, hi) */
    int rows = hi - lo, most = (NY + n - 1) / n;

    /* Local row r (1..rows) is global row lo + r - 1; rows 0 and rows + 1
     * are the halos.  Same size on every PE: symmetric allocations must be. */
    size_t plane = (size_t)(most + 2) * NX;
    double *grid = shmem_calloc(2 * plane, sizeof(double));
    for (int c = 0; c < 2; c++)
        for (int r = 1; r <= rows; r++)
            for (int x = 0; x < NX; x++)
                grid[c * plane + (size_t)r * NX + x] = lo + r - 1 == 0 ? 100.0 : 0.0;
    shmem_barrier_all();

    for (int step = 0; step < STEPS; step++) {
        double *u = grid + (step % 2) * plane;        /* read this copy */
        double *v = grid + (1 - step % 2) * plane;    /* write this one */
        /* My first row goes into the bottom halo of the PE above; my last
         * row into the top halo of the PE below.  Same address everywhere. */
        if (me > 0) {
            int above_rows = lo - (me - 1) * NY / n;
            shmem_double_put(&u[(size_t)(above_rows + 1) * NX], &u[NX], NX, me - 1);
        }
        if (me < n - 1)
            shmem_double_put(&u[0], &u[(size_t)rows * NX], NX, me + 1);
        shmem_barrier_all();          /* halos are in place on every PE */

        for (int r = 1; r <= rows; r++) {
            int g = lo + r - 1;
            for (int x = 0; x < NX; x++) {
                double *out = &v[(size_t)r * NX + x];
                if (g == 0 || g == NY - 1 || x == 0 || x == NX - 1)
                    *out = u[(size_t)r * NX + x];                /* edges stay */
                else
                    *out = 0.25 * (u[(size_t)(r - 1) * NX + x] + u[(size_t)(r + 1) * NX + x] +
                                   u[(size_t)r * NX + x - 1] + u[(size_t)r * NX + x + 1]);
            }
        }
    }
    shmem_barrier_all();              /* everyone has finished the last step */

    /* PE 0 gets every row from its owner and draws the plate. */
    double *last = grid + (STEPS % 2) * plane;
    if (me == 0) {
        const char *shade = " .:-=+*#%@";    /* 0 .. 100 degrees */
        double sum = 0, row[NX];
        printf("after %d steps on %d PEs (%d x %d cells):\n", STEPS, n, NY, NX);
        for (int g = 0; g < NY; g++) {
            int owner = 0;
            while ((owner + 1) * NY / n <= g)
                owner++;
            shmem_double_get(row, &last[(size_t)(g - owner * NY / n + 1) * NX], NX, owner);
            char text[NX + 1];
            for (int x = 0; x < NX; x++) {
                sum += row[x];
                int k = (int)(row[x] / 100.0 * 9.0 + 0.5);
                text[x] = shade[k < 0 ? 0 : k > 9 ? 9 : k];
            }
            text[NX] = '\0';
            printf("|%s|\n", text);
        }
        printf("mean temperature %.4f\n", sum / (NX * NY));
    }
    shmem_free(grid);
    shmem_finalize();
    return 0;
}
