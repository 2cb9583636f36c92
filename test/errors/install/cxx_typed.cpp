// A C++ program using the typed routines of the installed <shmem.h>.
#include <shmem.h>
#include <cstdio>
#include <vector>

namespace {
long token = 0; // namespace-scope variable: symmetric like a C global
}

int main()
{
    shmem_init();
    const int me = shmem_my_pe(), n = shmem_n_pes();
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    int *values = static_cast<int *>(shmem_malloc(4 * sizeof(int)));
    for (int i = 0; i < 4; i++)
        values[i] = 10 * me + i;
    shmem_barrier_all();

    shmem_long_p(&token, 1000 + me, right);
    shmem_long_wait_until(&token, SHMEM_CMP_NE, 0);
    std::vector<int> got(4, -1);
    shmem_int_get(got.data(), values, 4, left);
    long remote = shmem_long_g(&token, right);

    bool ok = token == 1000 + left && remote == 1000 + me;
    for (int i = 0; i < 4; i++)
        ok = ok && got[i] == 10 * left + i;
    shmem_barrier_all();
    shmem_free(values);
    if (!ok)
        std::printf("FAILED: PE %d token %ld remote %ld\n", me, token, remote);
    else if (me == 0)
        std::printf("OK: C++ program on %d PEs\n", n);
    shmem_finalize();
    return ok ? 0 : 1;
}
