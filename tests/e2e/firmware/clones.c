/*
 * clones.c - the functions GCC 12 makes out of one source function at -O2
 * and -Os, each doing known work, so that every output can be checked
 * against the truth per symbol and per source function:
 *
 *   burn_k      static, always called with k = 3: burn_k.constprop.0
 *   burn_cfg    static, reads one member of the struct it is handed:
 *               burn_cfg.isra.0
 *   lookup      static, a cheap hit test ahead of an expensive miss: at
 *               -O2 its head is inlined into run_round and the miss is
 *               lookup.part.0 (at -Os it stays whole)
 *   rare_path   a branch it expects never to take (it calls the cold
 *               rare_note): rare_path.cold with -freorder-blocks-and-partition
 *               (RISC-V; GCC 12 does not split functions on ARM)
 *   idle_wait   static, called with a constant: idle_wait.constprop.0,
 *               right after task_name
 *   op_xor      a cheap function called 300 times, right before the
 *               burn_k and burn_cfg clones
 *
 * Units of work (spin.h, UNIT iterations of two instructions) per round:
 * burn_k 2 x 15, burn_cfg 2 x 10, lookup's misses 2 x 10, rare_path 10 in
 * its body and 10 in its rare branch, idle_wait 10: 100 in all. The host
 * side of the test (tests/e2e/clones.sh) holds the calls and units each
 * symbol must show; the names GCC chose are read from the ELF.
 */
#include "time_common.h"

#define UNIT 12500u
#define ROUNDS 25u

volatile uint32_t clone_sink;

struct cfg {
    uint32_t gain, offset, units, mode;
};

/* noipa: the two cheap functions stay one symbol each (no clone of
 * their own), so their calls are exact per name. */
__attribute__((noipa)) uint32_t task_name(uint32_t v)
{
    return v * 2654435761u;
}

static __attribute__((noinline)) void idle_wait(uint32_t units, uint32_t unit)
{
    uint32_t n = units * unit;

    SPIN_LOOP(n);
}

__attribute__((noipa)) uint32_t op_xor(uint32_t a, uint32_t b)
{
    return a ^ b;
}

static __attribute__((noinline)) void burn_k(uint32_t n, uint32_t k)
{
    for (uint32_t j = 0; j < k; j++) {
        uint32_t m = n;

        SPIN_LOOP(m);
    }
}

static __attribute__((noinline)) void burn_cfg(const struct cfg *c)
{
    uint32_t n = c->units * UNIT;

    SPIN_LOOP(n);
}

static uint32_t cache_key = 0xffffffffu, cache_val;

/* A hit costs a compare; a miss spins 10 units and calls out, enough code
 * that GCC keeps it out of line when it inlines the hit test. */
static uint32_t lookup(uint32_t key)
{
    if (__builtin_expect(key == cache_key, 1))
        return cache_val;
    uint32_t n = 10u * UNIT;
    SPIN_LOOP(n);
    clone_sink = op_xor(key, 1u);
    clone_sink = op_xor(key, 2u);
    clone_sink = task_name(key);
    clone_sink = task_name(key + 1u);
    cache_key = key;
    cache_val = key * 7u + clone_sink;
    return cache_val;
}

/* What GCC takes for an error path: a call of a cold function makes the
 * branch that calls it cold, and the partitioning moves it out. */
__attribute__((noipa, cold)) void rare_note(uint32_t v)
{
    clone_sink = v;
}

__attribute__((noinline)) void rare_path(uint32_t n, uint32_t rare)
{
    SPIN_LOOP(n);
    if (__builtin_expect(rare != 0u, 0)) {
        rare_note(rare);
        clone_sink = task_name(rare);
        SPIN_LOOP(rare);
    }
}

static void run_round(uint32_t r)
{
    /* static: a copy on the stack would be a memcpy call, and the boards
     * link no C library */
    static const struct cfg a = {3u, 1u, 10u, 0u}, b = {5u, 2u, 10u, 1u};

    burn_k(5u * UNIT, 3u);
    burn_cfg(&a);
    /* two misses (new keys), three hits */
    clone_sink = lookup(2u * r);
    clone_sink = lookup(2u * r);
    clone_sink = lookup(2u * r + 1u);
    clone_sink = lookup(2u * r + 1u);
    clone_sink = lookup(2u * r + 1u);
    rare_path(10u * UNIT, 10u * UNIT);
    burn_k(5u * UNIT, 3u);
    burn_cfg(&b);
    idle_wait(10u, UNIT);
    /* 12 calls of each cheap function a round, 4 of them from lookup's
     * misses and 1 from rare_path (task_name) */
    for (uint32_t i = 0; i < 8u; i++)
        clone_sink = op_xor(clone_sink, i);
    for (uint32_t i = 0; i < 7u; i++)
        clone_sink = task_name(clone_sink + i);
}

int main(void)
{
    tc_start();
    for (uint32_t r = 0; r < ROUNDS; r++)
        run_round(r);
    tc_finish();
    board_puts("clones: done\n");
    return 0;
}
