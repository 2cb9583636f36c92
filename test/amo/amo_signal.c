/*
 * amo_signal: put-with-signal and the signal routines.
 *
 * Ring: PE i put_signals a payload to PE (i+1)%n, which waits for the
 * signal with shmem_signal_wait_until and then checks the WHOLE payload
 * at once: a signal that arrives before the last byte of a 4 MiB payload
 * shows as stale data.  Each round uses a new pattern and the same
 * buffers; the consumer acknowledges each round with a signal AMO back to
 * the producer before it may overwrite the payload.  Every round uses the
 * next calling form (plain, ctx, _nbi, ctx _nbi); runs cover SET and ADD,
 * payload and signal each in the symmetric heap or in global data, the
 * mem, sized, typed (all RMA types) and C11 generic routines.
 *
 * Also: ADD signals from every PE to one signal on PE 0 sum exactly;
 * signal_set/add in plain, ctx and C11 generic forms; signal_fetch.
 */
#include "amo_common.h"

#define BIG ((size_t)4 << 20)
#define N_FORMS 4

static char g_payload[BIG] __attribute__((aligned(64)));
static uint64_t g_sigs[4];

/* Private scratch: source and expected image. */
static char *src_buf, *want_buf;

/* The payload PE pe sends with tag `tag`: 64-bit words of a hash. */
static void fill(void *buf, size_t bytes, int pe, uint64_t tag)
{
    uint64_t key = ((uint64_t)pe << 48) ^ (tag << 8) ^ 0x5157;
    size_t words = bytes / 8;
    uint64_t *w = buf;
    for (size_t k = 0; k < words; k++)
        w[k] = amo_hash(key, k);
    uint64_t last = amo_hash(key, words);
    memcpy((char *)buf + words * 8, &last, bytes % 8);
}

static int check_payload(const char *what, const void *got, size_t bytes, int pe, uint64_t tag)
{
    fill(want_buf, bytes, pe, tag);
    if (memcmp(got, want_buf, bytes) == 0)
        return 1;
    size_t k = 0;
    while (((const char *)got)[k] == want_buf[k])
        k++;
    size_t bad = 0;
    for (size_t j = k; j < bytes; j++)
        bad += ((const char *)got)[j] != want_buf[j];
    amo_fail("%s: payload from PE %d tag %llu: byte %zu of %zu differs (%zu bytes differ)",
             what, pe, (unsigned long long)tag, k, bytes, bad);
    return 0;
}

/* One put-with-signal in calling form `form` (0 plain, 1 ctx, 2 nbi,
 * 3 ctx nbi). */
typedef void (*send_fn)(void *dest, const void *src, size_t nelems, uint64_t *sig,
                        uint64_t value, int op, int pe, int form);
typedef struct {
    const char *name;
    size_t elem;
    send_fn fn;
} sender_t;

#define SEND_BODY(NAME, PT)                                                                \
    {                                                                                      \
        shmem_ctx_t ctx = shmem_check_ctx;                                               \
        PT *d = dest;                                                                      \
        const PT *s = src;                                                                 \
        switch (form % N_FORMS) {                                                          \
        case 0: shmem_##NAME(d, s, n, sig, v, op, pe); break;                              \
        case 1: shmem_ctx_##NAME(ctx, d, s, n, sig, v, op, pe); break;                     \
        case 2: shmem_##NAME##_nbi(d, s, n, sig, v, op, pe); break;                        \
        default: shmem_ctx_##NAME##_nbi(ctx, d, s, n, sig, v, op, pe); break;              \
        }                                                                                  \
    }
#define SEND_PARAMS                                                                        \
    (void *dest, const void *src, size_t n, uint64_t *sig, uint64_t v, int op, int pe, int form)

#define DEFINE_SEND_TYPED(T, N, A) static void send_##N SEND_PARAMS SEND_BODY(N##_put_signal, T)
#define DEFINE_SEND_SIZED(BITS, BYTES, A)                                                  \
    static void send_##BITS SEND_PARAMS SEND_BODY(put##BITS##_signal, void)
MPISHMEM_RMA_TYPES(DEFINE_SEND_TYPED, _)
MPISHMEM_RMA_SIZES(DEFINE_SEND_SIZED, _)
static void send_mem SEND_PARAMS SEND_BODY(putmem_signal, void)

/* C11 generic forms: shmem_put_signal(dest, ...) and (ctx, dest, ...). */
#define DEFINE_SEND_GENERIC(T, N, A)                                                       \
    static void send_generic_##N SEND_PARAMS                                               \
    {                                                                                      \
        shmem_ctx_t ctx = shmem_check_ctx;                                               \
        T *d = dest;                                                                       \
        const T *s = src;                                                                  \
        switch (form % N_FORMS) {                                                          \
        case 0: DEFER(shmem_put_signal)(d, s, n, sig, v, op, pe); break;                   \
        case 1: DEFER(shmem_put_signal)(ctx, d, s, n, sig, v, op, pe); break;              \
        case 2: DEFER(shmem_put_signal_nbi)(d, s, n, sig, v, op, pe); break;               \
        default: DEFER(shmem_put_signal_nbi)(ctx, d, s, n, sig, v, op, pe); break;         \
        }                                                                                  \
    }
EVAL(MPISHMEM_RMA_GENERIC_TYPES(DEFINE_SEND_GENERIC, _))

#define ENTRY_TYPED(T, N, A) {#N "_put_signal", sizeof(T), send_##N},
#define ENTRY_SIZED(BITS, BYTES, A) {"put" #BITS "_signal", BYTES, send_##BITS},
#define ENTRY_GENERIC(T, N, A) {"generic put_signal " #T, sizeof(T), send_generic_##N},
static const sender_t typed_senders[] = {MPISHMEM_RMA_TYPES(ENTRY_TYPED, _){NULL, 0, NULL}};
static const sender_t sized_senders[] = {MPISHMEM_RMA_SIZES(ENTRY_SIZED, _){NULL, 0, NULL}};
static const sender_t generic_senders[] = {
    MPISHMEM_RMA_GENERIC_TYPES(ENTRY_GENERIC, _){NULL, 0, NULL}};
static const sender_t mem_sender = {"putmem_signal", 1, send_mem};

/* The acknowledgement after round r (ack counts rounds): varied forms. */
static void ack_round(uint64_t *ack, int r, int pe)
{
    shmem_ctx_t ctx = shmem_check_ctx;
    switch (r % 5) {
    case 0: shmem_signal_add(ack, 1, pe); break;                     /* C11 default branch */
    case 1: shmem_ctx_signal_add(ctx, ack, 1, pe); break;
    case 2: shmem_signal_add(ctx, ack, 1, pe); break;                /* C11 ctx-first form */
    case 3: shmem_signal_set(ack, (uint64_t)r + 1, pe); break;
    default: shmem_signal_set(ctx, ack, (uint64_t)r + 1, pe); break; /* C11 ctx-first */
    }
}

/* Round r sends r+1: SET leaves r+1, ADD the sum 1 + ... + (r+1). */
static uint64_t sig_after(int op, int r)
{
    return op == SHMEM_SIGNAL_SET ? (uint64_t)r + 1 : ((uint64_t)r + 1) * ((uint64_t)r + 2) / 2;
}

/* The ring: `rounds` rounds of `nelems` elements of sender s into dest,
 * signal sig, acknowledgement ack (both symmetric, in any segment). */
static void ring(const sender_t *s, size_t nelems, void *dest, uint64_t *sig, uint64_t *ack,
                 int op, int rounds, uint64_t salt)
{
    int me = shmem_my_pe(), right = amo_right(), left = amo_left();
    size_t bytes = nelems * s->elem;
    char what[160];
    shmem_signal_set(sig, 0, me);
    shmem_signal_set(ack, 0, me);
    shmem_barrier_all();
    for (int r = 0; r < rounds; r++) {
        uint64_t tag = salt * 64 + (uint64_t)r;
        static const char *const forms[N_FORMS] = {"plain", "ctx", "nbi", "ctx nbi"};
        snprintf(what, sizeof what, "%s %s %s round %d (%zu bytes)", s->name,
                 op == SHMEM_SIGNAL_SET ? "SET" : "ADD", forms[r % N_FORMS], r, bytes);
        /* The consumer must be done with the previous round. */
        if (r > 0)
            shmem_signal_wait_until(ack, SHMEM_CMP_GE, (uint64_t)r);
        fill(src_buf, bytes, me, tag);
        s->fn(dest, src_buf, nelems, sig, (uint64_t)r + 1, op, right, r);
        if (r % N_FORMS >= 2)
            check_quiet(); /* _nbi: the source may be reused only after a quiet */
        uint64_t want = sig_after(op, r);
        uint64_t got = shmem_signal_wait_until(sig, SHMEM_CMP_GE, want);
        if (got != want)
            amo_fail("%s: signal_wait_until returned %llu, expected %llu", what,
                     (unsigned long long)got, (unsigned long long)want);
        check_payload(what, dest, bytes, left, tag);
        uint64_t f = shmem_signal_fetch(sig);
        if (f != want)
            amo_fail("%s: signal_fetch returned %llu, expected %llu", what,
                     (unsigned long long)f, (unsigned long long)want);
        ack_round(ack, r, left);
    }
    shmem_signal_wait_until(ack, SHMEM_CMP_GE, (uint64_t)rounds);
    shmem_barrier_all();
}

/* Payload and signal placements: heap/heap, global/global, mixed. */
typedef struct {
    void *dest;
    uint64_t *sig, *ack;
    const char *name;
} place_t;

static char *heap_payload;
static uint64_t *heap_sigs;

static place_t place(int k)
{
    switch (k % 4) {
    case 0: return (place_t){heap_payload, &heap_sigs[0], &heap_sigs[1], "heap/heap"};
    case 1: return (place_t){g_payload, &g_sigs[0], &g_sigs[1], "global/global"};
    case 2: return (place_t){heap_payload, &g_sigs[2], &heap_sigs[2], "heap/global"};
    default: return (place_t){g_payload, &heap_sigs[3], &g_sigs[3], "global/heap"};
    }
}

static void setup(void)
{
    heap_payload = shmem_malloc(BIG);
    heap_sigs = shmem_calloc(4, sizeof *heap_sigs);
    src_buf = malloc(BIG);
    want_buf = malloc(BIG);
    ck_assert(heap_payload && heap_sigs && src_buf && want_buf);
}

static void teardown(void)
{
    shmem_free(heap_sigs);
    shmem_free(heap_payload);
    free(src_buf);
    free(want_buf);
}

/* Runs senders over their payload size, cycling through placements and
 * SET/ADD. */
static void run_senders(const sender_t *list, size_t target_bytes, int rounds)
{
    AMO_BEGIN();
    for (int k = 0; list[k].fn != NULL; k++) {
        place_t p = place(k);
        /* An odd element count: not a multiple of 8 bytes for small types. */
        size_t nelems = target_bytes / list[k].elem + (size_t)(2 * k + 1);
        ck_assert_uint_le(nelems * list[k].elem, BIG);
        ring(&list[k], nelems, p.dest, p.sig, p.ack,
             k % 2 ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET, rounds, (uint64_t)k + 1);
    }
    AMO_END();
}

/* 4 MiB with putmem_signal and put64_signal, in every placement, SET and
 * ADD, every form. */
START_TEST(test_big_payload)
{
    AMO_BEGIN();
    const sender_t *s64 = &sized_senders[3];
    ck_assert_uint_eq(s64->elem, 8);
    for (int k = 0; k < 8; k++) {
        place_t p = place(k);
        int op = k / 4 ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET;
        if (k % 2 == 0)
            ring(&mem_sender, BIG, p.dest, p.sig, p.ack, op, N_FORMS, 100 + (uint64_t)k);
        else
            ring(s64, BIG / 8, p.dest, p.sig, p.ack, op, N_FORMS, 100 + (uint64_t)k);
    }
    AMO_END();
}
END_TEST

START_TEST(test_sized) { run_senders(sized_senders, (size_t)256 << 10, N_FORMS); }
END_TEST
START_TEST(test_typed) { run_senders(typed_senders, 3000, N_FORMS); }
END_TEST
START_TEST(test_generic) { run_senders(generic_senders, 3000, N_FORMS); }
END_TEST

/* Zero elements: only the signal moves. */
START_TEST(test_empty_payload)
{
    AMO_BEGIN();
    place_t p = place(0), q = place(1);
    ring(&mem_sender, 0, p.dest, p.sig, p.ack, SHMEM_SIGNAL_SET, N_FORMS, 200);
    ring(&typed_senders[0], 0, q.dest, q.sig, q.ack, SHMEM_SIGNAL_ADD, N_FORMS, 201);
    AMO_END();
}
END_TEST

/* Every PE adds to one signal on PE 0, by signal_add (three forms) and by
 * put_signal ADD (each into its own slot); the sum is exact, with 64-bit
 * values whose high halves carry. */
#define ADD_ROUNDS 24
#define SLOT_WORDS 40
static uint64_t g_slots[64 * ADD_ROUNDS * SLOT_WORDS];
static uint64_t g_sum_sig;

static uint64_t add_value(int pe, int r)
{
    /* 2^32..3*2^32 plus a low part near 2^32: sums carry across the halves. */
    return ((uint64_t)(r % 3 + 1) << 32) + (uint64_t)pe * 1000 + (uint64_t)r + 0xfffff000u;
}

static void add_sum(uint64_t *sig, uint64_t *slots)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_ctx_t ctx = shmem_check_ctx;
    uint64_t total = 0;
    for (int pe = 0; pe < npes; pe++)
        for (int r = 0; r < ADD_ROUNDS; r++)
            total += add_value(pe, r);
    if (me == 0)
        shmem_signal_set(sig, 0, 0);
    shmem_barrier_all();
    uint64_t src[SLOT_WORDS];
    for (int r = 0; r < ADD_ROUNDS; r++) {
        uint64_t v = add_value(me, r);
        uint64_t *slot = slots + ((size_t)me * ADD_ROUNDS + (size_t)r) * SLOT_WORDS;
        fill(src, sizeof src, me, (uint64_t)r);
        switch (r % 5) {
        case 0: shmem_signal_add(sig, v, 0); break;
        case 1: shmem_ctx_signal_add(ctx, sig, v, 0); break;
        case 2: shmem_signal_add(ctx, sig, v, 0); break;
        case 3: shmem_uint64_put_signal(slot, src, SLOT_WORDS, sig, v, SHMEM_SIGNAL_ADD, 0); break;
        default:
            shmem_putmem_signal_nbi(slot, src, sizeof src, sig, v, SHMEM_SIGNAL_ADD, 0);
            break;
        }
    }
    check_quiet();
    if (me == 0) {
        uint64_t got = shmem_signal_wait_until(sig, SHMEM_CMP_EQ, total);
        AMO_EXPECT("sum of ADD signals", got, total);
        AMO_EXPECT("signal_fetch of the sum", shmem_signal_fetch(sig), total);
        /* Each put_signal's payload was visible once its signal was. */
        for (int pe = 0; pe < npes; pe++)
            for (int r = 0; r < ADD_ROUNDS; r++)
                if (r % 5 >= 3)
                    check_payload("put_signal ADD slot",
                                  slots + ((size_t)pe * ADD_ROUNDS + (size_t)r) * SLOT_WORDS,
                                  SLOT_WORDS * 8, pe, (uint64_t)r);
    }
    shmem_barrier_all();
}

START_TEST(test_add_sum)
{
    AMO_BEGIN();
    int npes = shmem_n_pes();
    ck_assert_int_le(npes, 64);
    uint64_t *hsig = shmem_malloc(sizeof *hsig);
    uint64_t *hslots = shmem_malloc((size_t)npes * ADD_ROUNDS * SLOT_WORDS * 8);
    add_sum(hsig, hslots);         /* heap signal, heap payload */
    add_sum(&g_sum_sig, g_slots);  /* global signal, global payload */
    add_sum(hsig, g_slots);        /* heap signal, global payload */
    add_sum(&g_sum_sig, hslots);   /* global signal, heap payload */
    shmem_free(hslots);
    shmem_free(hsig);
    AMO_END();
}
END_TEST

/* signal_set to a neighbour and to self in every form, 64-bit values;
 * wait_until returns the value that satisfied it; signal_fetch agrees. */
static void set_fetch(uint64_t *sig)
{
    int me = shmem_my_pe(), right = amo_right();
    shmem_ctx_t ctx = shmem_check_ctx;
    const uint64_t base = 0xfedcba9876543210ull;
    shmem_signal_set(sig, 0, me);
    shmem_barrier_all();
    for (int r = 0; r < 6; r++) {
        uint64_t v = base + (uint64_t)r * 0x100000001ull;
        int pe = r % 2 ? me : right;
        switch (r % 3) {
        case 0: shmem_signal_set(sig, v, pe); break;
        case 1: shmem_ctx_signal_set(ctx, sig, v, pe); break;
        default: shmem_signal_set(ctx, sig, v, pe); break;
        }
        /* Our signal receives exactly the same value from the left PE or self. */
        uint64_t got = shmem_signal_wait_until(sig, SHMEM_CMP_EQ, v);
        AMO_EXPECT("signal_wait_until after signal_set", got, v);
        AMO_EXPECT("signal_fetch after signal_set", shmem_signal_fetch(sig), v);
        shmem_barrier_all(); /* nobody sets round r+1 before all saw round r */
    }
    /* GT: returns the value that satisfied the comparison. */
    shmem_signal_add(sig, 5, right);
    uint64_t last = base + 5 * 0x100000001ull;
    AMO_EXPECT("signal_wait_until GT", shmem_signal_wait_until(sig, SHMEM_CMP_GT, last), last + 5);
    AMO_EXPECT("signal_wait_until NE", shmem_signal_wait_until(sig, SHMEM_CMP_NE, 0), last + 5);
    shmem_barrier_all();
}

START_TEST(test_set_fetch)
{
    AMO_BEGIN();
    uint64_t *hsig = shmem_malloc(sizeof *hsig);
    set_fetch(hsig);
    set_fetch(&g_sigs[0]);
    shmem_free(hsig);
    AMO_END();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("amo_signal");
    TCase *tc = tcase_create("signal");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_big_payload);
    tcase_add_test(tc, test_sized);
    tcase_add_test(tc, test_typed);
    tcase_add_test(tc, test_generic);
    tcase_add_test(tc, test_empty_payload);
    tcase_add_test(tc, test_add_sum);
    tcase_add_test(tc, test_set_fetch);
    suite_add_tcase(s, tc);
    return s;
}

SHMEM_CHECK_MAIN(make_suite)
