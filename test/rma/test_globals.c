/*
 * RMA on global and static objects at odd offsets.
 *
 * Regression test for puts landing at the wrong address when a window's
 * base is not 16-byte aligned (MPICH 4.0.2): every size 1..64 at every
 * offset 0..15, with guard bytes around each transfer that must survive.
 * Also odd-placed objects: a long after char[3] (in .data and in .bss), a
 * packed struct, char arrays of odd sizes, static locals in functions.
 * The same matrix runs on the symmetric heap for comparison.
 */
#include <stddef.h>
#include <shmem.h>
#include "rma_common.h"

#define MAX_SIZE 64
#define N_OFFSETS 16
#define SLOT 96 /* 16 lead bytes + 64 data + 16 trailing guard */
#define N_SLOTS (MAX_SIZE * N_OFFSETS)
#define GUARD 0xA5

/* Slot (size s, offset o) for puts from the left neighbour [0] and from
 * this PE [1]; aligned so offset o is o mod 16 in the address too. */
static uint8_t put_area[2][N_SLOTS][SLOT] __attribute__((aligned(64)));
/* Source of the get matrix, and the private destinations of gets. */
static uint8_t get_src[N_OFFSETS + MAX_SIZE + 16] __attribute__((aligned(64)));
static uint8_t get_dst[2][N_SLOTS][SLOT] __attribute__((aligned(64)));

typedef void (*contig_fn)(void *, const void *, size_t, int);
struct family {
    size_t elem;
    contig_fn put, get, put_nbi, get_nbi;
};
#define FAMILY(BITS, BYTES, A)                                                             \
    {BYTES, shmem_put##BITS, shmem_get##BITS, shmem_put##BITS##_nbi, shmem_get##BITS##_nbi},
static const struct family families[] = {
    {1, shmem_putmem, shmem_getmem, shmem_putmem_nbi, shmem_getmem_nbi},
    MPISHMEM_RMA_SIZES(FAMILY, _)};
#define N_FAMILIES (sizeof families / sizeof families[0])

static size_t slot_of(size_t size, size_t off) { return (size - 1) * N_OFFSETS + off; }

/* The routine for (size, offset): rotate through the families, using one
 * whose element divides the size; odd offsets use the nbi form. */
static const struct family *family_for(size_t size, size_t off)
{
    const struct family *f = &families[(size + off) % N_FAMILIES];
    return size % f->elem == 0 ? f : &families[0];
}

/* Sources of the put matrix: an nbi put may read its source until quiet. */
static uint8_t put_src[N_SLOTS][MAX_SIZE];

static void put_one(uint8_t *slot, size_t size, size_t off, int pe)
{
    uint8_t *src = put_src[slot_of(size, off)];
    const struct family *f = family_for(size, off);
    rma_fill(src, size, shmem_my_pe(), (unsigned)slot_of(size, off));
    if (off & 1)
        f->put_nbi(slot + off, src, size / f->elem, pe);
    else
        f->put(slot + off, src, size / f->elem, pe);
}

/* The slot as it must be after PE `from` put into it. */
static void expected_slot(uint8_t *image, size_t size, size_t off, int from)
{
    memset(image, GUARD, SLOT);
    rma_fill(image + off, size, from, (unsigned)slot_of(size, off));
}

static void put_matrix(uint8_t (*area)[N_SLOTS][SLOT], const char *where)
{
    int me = shmem_my_pe(), right = rma_right(), left = rma_left();
    memset(area, GUARD, 2 * sizeof area[0]);
    shmem_barrier_all();
    for (int k = 0; k < 2; k++)
        for (size_t size = 1; size <= MAX_SIZE; size++)
            for (size_t off = 0; off < N_OFFSETS; off++)
                put_one(area[k][slot_of(size, off)], size, off, k ? me : right);
    shmem_quiet();
    shmem_barrier_all();
    for (int k = 0; k < 2; k++)
        for (size_t size = 1; size <= MAX_SIZE; size++)
            for (size_t off = 0; off < N_OFFSETS; off++) {
                uint8_t image[SLOT];
                int from = k ? me : left;
                expected_slot(image, size, off, from);
                char what[128];
                snprintf(what, sizeof what, "%s put of %zu bytes at offset %zu from PE %d",
                         where, size, off, from);
                rma_check_bytes(what, area[k][slot_of(size, off)], image, SLOT);
            }
    shmem_barrier_all();
}

START_TEST(test_put_matrix_global)
{
    RMA_BEGIN();
    put_matrix(put_area, "global");
    RMA_END();
}
END_TEST

START_TEST(test_put_matrix_heap)
{
    RMA_BEGIN();
    uint8_t(*area)[N_SLOTS][SLOT] = shmem_align(64, sizeof put_area);
    ck_assert_ptr_nonnull(area);
    put_matrix(area, "heap");
    shmem_free(area);
    RMA_END();
}
END_TEST

/* Gets of every size from every offset of a global source into guarded
 * slots of a global destination, at a local offset that differs from the
 * remote one; blocking at offsets 0, 4, 8, 12, nbi elsewhere. */
START_TEST(test_get_matrix_global)
{
    RMA_BEGIN();
    int me = shmem_my_pe(), right = rma_right();
    rma_fill(get_src, sizeof get_src, me, 77);
    memset(get_dst, GUARD, sizeof get_dst);
    shmem_barrier_all();
    for (int k = 0; k < 2; k++) {
        int pe = k ? me : right;
        for (size_t size = 1; size <= MAX_SIZE; size++)
            for (size_t off = 0; off < N_OFFSETS; off++) {
                const struct family *f = family_for(size, off);
                size_t loff = (off * 5 + size) % N_OFFSETS;
                uint8_t *slot = get_dst[k][slot_of(size, off)];
                /* mostly nbi: each blocking get waits for a round trip */
                if (off % 4 != 0)
                    f->get_nbi(slot + loff, get_src + off, size / f->elem, pe);
                else
                    f->get(slot + loff, get_src + off, size / f->elem, pe);
            }
    }
    shmem_quiet();
    for (int k = 0; k < 2; k++) {
        int pe = k ? me : right;
        for (size_t size = 1; size <= MAX_SIZE; size++)
            for (size_t off = 0; off < N_OFFSETS; off++) {
                size_t loff = (off * 5 + size) % N_OFFSETS;
                uint8_t image[SLOT];
                memset(image, GUARD, SLOT);
                for (size_t j = 0; j < size; j++)
                    image[loff + j] = rma_byte(pe, 77, off + j);
                char what[128];
                snprintf(what, sizeof what, "get of %zu bytes from offset %zu of PE %d",
                         size, off, pe);
                rma_check_bytes(what, get_dst[k][slot_of(size, off)], image, SLOT);
            }
    }
    shmem_barrier_all();
    RMA_END();
}
END_TEST

/* Objects the compiler places at odd addresses. */
static char data_pad[3] = {1, 2, 3};
static long data_x = 42;
static char data_odd[37] = {7};
static char bss_pad[3];
static long bss_x;
static char bss_odd[13];

struct __attribute__((packed)) packed {
    char pad[3];
    long x;
    short y;
    char tail[5];
};
static struct packed packed_obj;
static struct packed packed_arr[3];

static short *static_local_short(void)
{
    static char before = 9;
    static short s;
    (void)before;
    return &s;
}

static double *static_local_double(void)
{
    static char before[5] = "abcd";
    static double d = 1.5;
    (void)before;
    return &d;
}

static long value_from(int pe, int what) { return 1000L * (pe + 1) + what; }

START_TEST(test_odd_objects)
{
    RMA_BEGIN();
    int me = shmem_my_pe(), right = rma_right(), left = rma_left();
    /* Known contents everywhere before anyone writes. */
    memcpy(data_pad, "\x01\x02\x03", 3);
    memcpy(bss_pad, "\x04\x05\x06", 3);
    data_x = -1;
    bss_x = -1;
    memset(data_odd, 0x11, sizeof data_odd);
    memset(bss_odd, 0x22, sizeof bss_odd);
    memset(&packed_obj, 0x33, sizeof packed_obj);
    memset(packed_arr, 0x44, sizeof packed_arr);
    *static_local_short() = -1;
    *static_local_double() = -1.0;
    shmem_barrier_all();

    shmem_long_p(&data_x, value_from(me, 1), right);
    shmem_long_put(&bss_x, (long[]){value_from(me, 2)}, 1, right);
    char odd_src[37];
    memset(odd_src, 'a' + me, sizeof odd_src);
    shmem_char_put(data_odd + 1, odd_src, 35, right); /* leaves both ends */
    shmem_char_put_nbi(bss_odd, odd_src, 13, right);
    /* Packed members through the untyped routines (no misaligned T *). */
    long px = value_from(me, 3);
    short py = (short)value_from(me, 4);
    shmem_put64((char *)&packed_obj + offsetof(struct packed, x), &px, 1, right);
    shmem_put16((char *)&packed_obj + offsetof(struct packed, y), &py, 1, right);
    shmem_putmem((char *)&packed_arr[1] + offsetof(struct packed, x), &px, sizeof px, right);
    shmem_short_p(static_local_short(), (short)value_from(me, 5), right);
    shmem_double_p(static_local_double(), (double)value_from(me, 6), right);
    shmem_quiet();
    shmem_barrier_all();

    if (data_x != value_from(left, 1))
        rma_fail("long after char[3] in .data: %ld", data_x);
    if (bss_x != value_from(left, 2))
        rma_fail("long after char[3] in .bss: %ld", bss_x);
    if (memcmp(data_pad, "\x01\x02\x03", 3) != 0 || memcmp(bss_pad, "\x04\x05\x06", 3) != 0)
        rma_fail("char[3] before a long changed");
    if (data_odd[0] != 0x11 || data_odd[36] != 0x11)
        rma_fail("ends of char[37] changed: %d %d", data_odd[0], data_odd[36]);
    for (int i = 1; i < 36; i++)
        if (data_odd[i] != 'a' + left)
            rma_fail("char[37] element %d is %d", i, data_odd[i]);
    for (int i = 0; i < 13; i++)
        if (bss_odd[i] != 'a' + left)
            rma_fail("char[13] element %d is %d", i, bss_odd[i]);
    long gx;
    short gy;
    memcpy(&gx, (char *)&packed_obj + offsetof(struct packed, x), sizeof gx);
    memcpy(&gy, (char *)&packed_obj + offsetof(struct packed, y), sizeof gy);
    if (gx != value_from(left, 3) || gy != (short)value_from(left, 4))
        rma_fail("packed members: x %ld y %d", gx, gy);
    struct packed guard;
    memset(&guard, 0x33, sizeof guard);
    if (memcmp(packed_obj.pad, guard.pad, 3) != 0 || memcmp(packed_obj.tail, guard.tail, 5) != 0)
        rma_fail("packed struct padding members changed");
    uint8_t arr_image[sizeof packed_arr];
    memset(arr_image, 0x44, sizeof arr_image);
    memcpy(arr_image + sizeof(struct packed) + offsetof(struct packed, x),
           (long[]){value_from(left, 3)}, sizeof(long));
    rma_check_bytes("packed array", packed_arr, arr_image, sizeof arr_image);
    if (*static_local_short() != (short)value_from(left, 5))
        rma_fail("static local short: %d", *static_local_short());
    if (*static_local_double() != (double)value_from(left, 6))
        rma_fail("static local double: %g", *static_local_double());

    /* The same objects read back with g and get. */
    if (shmem_long_g(&data_x, right) != value_from(me, 1))
        rma_fail("g of long in .data");
    if (shmem_long_g(&bss_x, right) != value_from(me, 2))
        rma_fail("g of long in .bss");
    if (shmem_short_g(static_local_short(), right) != (short)value_from(me, 5))
        rma_fail("g of a static local short");
    if (shmem_double_g(static_local_double(), right) != (double)value_from(me, 6))
        rma_fail("g of a static local double");
    long rx = 0;
    shmem_get64(&rx, (char *)&packed_obj + offsetof(struct packed, x), 1, right);
    if (rx != value_from(me, 3))
        rma_fail("get64 of a packed member: %ld", rx);
    char odd_back[37];
    shmem_char_get(odd_back, data_odd, 37, right);
    if (odd_back[0] != 0x11 || odd_back[1] != 'a' + me || odd_back[35] != 'a' + me ||
        odd_back[36] != 0x11)
        rma_fail("get of char[37]");
    shmem_barrier_all();
    RMA_END();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("rma_globals");
    TCase *tc = tcase_create("globals");
    tcase_add_test(tc, test_put_matrix_global);
    tcase_add_test(tc, test_put_matrix_heap);
    tcase_add_test(tc, test_get_matrix_global);
    tcase_add_test(tc, test_odd_objects);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
