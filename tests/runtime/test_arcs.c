/*
 * test_arcs.c - the portable slow path of the call hook (target/common/
 * arcs.c), compiled for the host with 8-byte pointers (24-byte records,
 * references of 6 words) and a 4-record table:
 * exact counts, hash chains and move-to-front, a full table, saturated
 * counts, a call that arrives while the table is being changed, and
 * chains a stray write damaged (cut, never followed out of the table).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mcuprof_layout.h"
#include "mcuprof_port.h"

struct mcuprof_region mcuprof_region;
void (*test_interrupt)(void);
unsigned test_irq_depth;

_Static_assert(MCUPROF_CFG_ARCS == 4, "the tests assume a 4-record table");

static struct mcuprof_header *hdr(void)
{
    return &mcuprof_region.header;
}

static int setup(void **state)
{
    (void)state;
    memset(&mcuprof_region, 0, sizeof mcuprof_region);
    hdr()->state = MCUPROF_STATE_ARCS_Msk;
    test_interrupt = 0;
    test_irq_depth = 0;
    return 0;
}

/* Call sites that hash to the same bucket: differ only above the hash bits. */
#define SITE(i) ((uintptr_t)0x1000u + (uintptr_t)(i) * (MCUPROF_BUCKETS << MCUPROF_PORT_HASH_SHIFT))

static uint32_t count_of(uintptr_t from, uintptr_t self)
{
    for (uint32_t i = 1; i <= hdr()->arcs_used; i++)
        if (mcuprof_region.arcs[i].frompc == from && mcuprof_region.arcs[i].selfpc == self)
            return mcuprof_region.arcs[i].count;
    return 0;
}

/* The record index at the head of a call site's chain (buckets hold word
 * offsets, index * MCUPROF_ARC_WORDS; links hold indexes). */
static uint16_t head_of(uintptr_t from)
{
    uint16_t ref = mcuprof_region.buckets[(from >> MCUPROF_PORT_HASH_SHIFT) & (MCUPROF_BUCKETS - 1u)];
    assert_int_equal(ref % MCUPROF_ARC_WORDS, 0);
    return (uint16_t)(ref / MCUPROF_ARC_WORDS);
}

static void exact_counts(void **state)
{
    (void)state;
    for (int i = 0; i < 7; i++)
        mcuprof_record_arc(0x2001, 0x3001);
    mcuprof_record_arc(0x2011, 0x3001);
    assert_int_equal(hdr()->arcs_used, 2);
    assert_int_equal(count_of(0x2001, 0x3001), 7);
    assert_int_equal(count_of(0x2011, 0x3001), 1);
    assert_int_equal(test_irq_depth, 0); /* every irq_save restored */
}

static void chain_and_move_to_front(void **state)
{
    (void)state;
    /* one call site, three callees: one bucket, a chain of three */
    mcuprof_record_arc(SITE(0), 0xA0);
    mcuprof_record_arc(SITE(0), 0xB0);
    mcuprof_record_arc(SITE(0), 0xC0);
    assert_int_equal(head_of(SITE(0)), 3); /* newest first */
    mcuprof_record_arc(SITE(0), 0xA0);     /* found at the tail... */
    assert_int_equal(head_of(SITE(0)), 1); /* ...and moved to the head */
    assert_int_equal(count_of(SITE(0), 0xA0), 2);
    assert_int_equal(count_of(SITE(0), 0xB0), 1);
    assert_int_equal(count_of(SITE(0), 0xC0), 1);
    /* the chain still holds all three, each once */
    int seen = 0;
    for (uint16_t i = head_of(SITE(0)); i != 0; i = mcuprof_region.links[i])
        seen++;
    assert_int_equal(seen, 3);
    /* a different call site in the same bucket is a different arc */
    mcuprof_record_arc(SITE(1), 0xA0);
    assert_int_equal(count_of(SITE(1), 0xA0), 1);
    assert_int_equal(count_of(SITE(0), 0xA0), 2);
}

/* Call sites 2 bytes apart (`c.jal` or `blx rN` back to back) called in
 * turn: each arc is counted exactly and stays at the head of a bucket of
 * its own, where the assembly fast path finds it; nothing is relinked. */
static void adjacent_call_sites_keep_own_buckets(void **state)
{
    (void)state;
    const uintptr_t a = 0x2002, b = 0x2004, c = 0x2006;
    for (int i = 0; i < 5; i++) {
        mcuprof_record_arc(a, 0xA0);
        mcuprof_record_arc(b, 0xB0);
        mcuprof_record_arc(c, 0xC0);
    }
    assert_int_equal(hdr()->arcs_used, 3);
    assert_int_equal(count_of(a, 0xA0), 5);
    assert_int_equal(count_of(b, 0xB0), 5);
    assert_int_equal(count_of(c, 0xC0), 5);
    assert_int_equal(head_of(a), 1);
    assert_int_equal(head_of(b), 2);
    assert_int_equal(head_of(c), 3);
    for (uint16_t i = 1; i <= 3; i++)
        assert_int_equal(mcuprof_region.links[i], 0); /* chains of one */
}

static void full_table_keeps_what_it_has(void **state)
{
    (void)state;
    for (uintptr_t i = 0; i < MCUPROF_CFG_ARCS; i++)
        mcuprof_record_arc(0x100 + 4 * i, 0x900);
    assert_int_equal(hdr()->arcs_used, MCUPROF_CFG_ARCS);
    mcuprof_record_arc(0x500, 0x900); /* no room */
    mcuprof_record_arc(0x500, 0x900);
    mcuprof_record_arc(0x504, 0x904);
    assert_int_equal(hdr()->lost_arcs_table_full, 3);
    assert_int_equal(hdr()->arcs_used, MCUPROF_CFG_ARCS);
    /* recorded arcs still count, exactly */
    mcuprof_record_arc(0x100, 0x900);
    assert_int_equal(count_of(0x100, 0x900), 2);
    assert_int_equal(count_of(0x500, 0x900), 0);
}

static void counts_saturate(void **state)
{
    (void)state;
    mcuprof_record_arc(0x2001, 0x3001);
    mcuprof_region.arcs[1].count = UINT32_MAX - 1u;
    mcuprof_record_arc(0x2001, 0x3001);
    mcuprof_record_arc(0x2001, 0x3001);
    assert_int_equal(count_of(0x2001, 0x3001), UINT32_MAX);
    hdr()->lost_arcs_table_full = UINT32_MAX;
    hdr()->arcs_used = MCUPROF_CFG_ARCS;
    mcuprof_record_arc(0x7001, 0x3001);
    assert_int_equal(hdr()->lost_arcs_table_full, UINT32_MAX);
}

/* An interrupt handler that is itself profiled, arriving while the slow
 * path is inserting a record (only an NMI or a fault can, on a real core). */
static void nested_call(void)
{
    mcuprof_record_arc(0x4001, 0x5001);
}

static void reentrant_call_is_counted(void **state)
{
    (void)state;
    test_interrupt = nested_call;
    mcuprof_record_arc(0x2001, 0x3001);
    assert_null(test_interrupt); /* it did arrive */
    assert_int_equal(hdr()->lost_calls_reentrant, 1);
    assert_int_equal(hdr()->arcs_used, 1);
    assert_int_equal(count_of(0x2001, 0x3001), 1);
    assert_int_equal(count_of(0x4001, 0x5001), 0);
    /* and the next call of that arc is recorded normally */
    nested_call();
    assert_int_equal(count_of(0x4001, 0x5001), 1);
    assert_int_equal(test_irq_depth, 0);
}

/* Sum of the counts of every record of one arc (a repaired chain leaves an
 * old record behind and starts a new one; the host adds them up). */
static uint32_t total_of(uintptr_t from, uintptr_t self)
{
    uint32_t n = 0;
    for (uint32_t i = 1; i <= hdr()->arcs_used; i++)
        if (mcuprof_region.arcs[i].frompc == from && mcuprof_region.arcs[i].selfpc == self)
            n += mcuprof_region.arcs[i].count;
    return n;
}

/* A stray write puts a bucket's reference far past the table: the slow
 * path must neither read nor write there, cut the chain, count the repair
 * and still count the call. */
static void corrupt_bucket_is_cut(void **state)
{
    (void)state;
    mcuprof_record_arc(SITE(0), 0x100);
    uint16_t *head = &mcuprof_region.buckets[(SITE(0) >> MCUPROF_PORT_HASH_SHIFT) & (MCUPROF_BUCKETS - 1u)];
    *head = 0xFFF0; /* record 10922 of a 4-record table */
    mcuprof_record_arc(SITE(0), 0x100);
    assert_int_equal(hdr()->arc_table_repairs, 1);
    assert_int_equal(total_of(SITE(0), 0x100), 2);
    assert_true(hdr()->arcs_used <= MCUPROF_CFG_ARCS);
    mcuprof_record_arc(SITE(0), 0x100); /* the chain is sound again */
    assert_int_equal(hdr()->arc_table_repairs, 1);
    assert_int_equal(total_of(SITE(0), 0x100), 3);
}

/* A stray write links a chain into a cycle: the walk must end (it runs with
 * interrupts masked) instead of spinning forever. */
static void link_cycle_is_cut(void **state)
{
    (void)state;
    mcuprof_record_arc(SITE(0), 0x100); /* record 1 */
    mcuprof_record_arc(SITE(1), 0x200); /* record 2, in front of 1 */
    mcuprof_region.links[1] = 2;        /* 2 -> 1 -> 2 -> ... */
    mcuprof_record_arc(SITE(2), 0x300); /* walks the chain, finds nothing */
    assert_int_equal(hdr()->arc_table_repairs, 1);
    assert_int_equal(total_of(SITE(2), 0x300), 1);
    assert_int_equal(total_of(SITE(0), 0x100), 1);
    assert_int_equal(total_of(SITE(1), 0x200), 1);
}

/* A link to a record that was never written (past arcs_used) is cut too. */
static void link_past_used_is_cut(void **state)
{
    (void)state;
    mcuprof_record_arc(SITE(0), 0x100); /* record 1 */
    mcuprof_region.links[1] = 3;        /* record 3 is not in use */
    mcuprof_record_arc(SITE(1), 0x200);
    mcuprof_record_arc(SITE(2), 0x300); /* walks 2 -> 1 -> 3: cut at 3 */
    assert_true(hdr()->arc_table_repairs >= 1);
    assert_int_equal(total_of(SITE(2), 0x300), 1);
    assert_int_equal(total_of(SITE(1), 0x200), 1);
}

static void stopped_records_nothing(void **state)
{
    (void)state;
    hdr()->state = 0;
    mcuprof_record_arc(0x2001, 0x3001);
    assert_int_equal(hdr()->arcs_used, 0);
    assert_int_equal(hdr()->lost_arcs_table_full, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(exact_counts, setup),
        cmocka_unit_test_setup(chain_and_move_to_front, setup),
        cmocka_unit_test_setup(adjacent_call_sites_keep_own_buckets, setup),
        cmocka_unit_test_setup(full_table_keeps_what_it_has, setup),
        cmocka_unit_test_setup(counts_saturate, setup),
        cmocka_unit_test_setup(reentrant_call_is_counted, setup),
        cmocka_unit_test_setup(stopped_records_nothing, setup),
        cmocka_unit_test_setup(corrupt_bucket_is_cut, setup),
        cmocka_unit_test_setup(link_cycle_is_cut, setup),
        cmocka_unit_test_setup(link_past_used_is_cut, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
