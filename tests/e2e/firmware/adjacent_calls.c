/*
 * adjacent_calls.c - exact counts from call sites next to each other.
 *
 * Three calls through registers back to back (`blx rN` on Thumb, `c.jalr`
 * with compressed RISC-V code: 2 bytes apart) in one asm statement, so the
 * compiler cannot spread them out; one of the three alternates between two
 * callees, so its bucket holds a chain the hook's assembly walks. The call
 * hook must count every call, whatever bucket each site hashes to and
 * whatever the table's layout (built with the default 256 buckets, and
 * with 1024, where the ARMv7-M hook addresses records from a second base).
 * The sampler runs throughout, interrupting the hook.
 */
#include <stdint.h>

#include "board.h"
#include "expect_lines.h"
#include "mcuprof.h"

#ifndef ROUNDS
#define ROUNDS 3000u
#endif

volatile uint32_t sink;
static uint32_t n_first, n_second, n_third_a, n_third_b;

__attribute__((noinline)) void first(void)
{
    n_first++;
    sink += 1u;
}

__attribute__((noinline)) void second(void)
{
    n_second++;
    sink += 2u;
}

__attribute__((noinline)) void third_a(void)
{
    n_third_a++;
    sink += 3u;
}

__attribute__((noinline)) void third_b(void)
{
    n_third_b++;
    sink += 4u;
}

/* Three call sites in a row; every register a call may clobber is
 * declared clobbered (the callees are ordinary C functions). */
__attribute__((noinline)) void three_in_a_row(void (*a)(void), void (*b)(void), void (*c)(void))
{
#if defined(__arm__)
    register void (*ra)(void) __asm__("r4") = a;
    register void (*rb)(void) __asm__("r5") = b;
    register void (*rc)(void) __asm__("r6") = c;
    __asm__ volatile("blx %0\n\tblx %1\n\tblx %2"
                     : "+r"(ra), "+r"(rb), "+r"(rc)
                     :
                     : "r0", "r1", "r2", "r3", "ip", "lr", "memory", "cc");
#elif defined(__riscv)
    register void (*ra)(void) __asm__("s1") = a;
    register void (*rb)(void) __asm__("s2") = b;
    register void (*rc)(void) __asm__("s3") = c;
    __asm__ volatile("jalr %0\n\tjalr %1\n\tjalr %2"
                     : "+r"(ra), "+r"(rb), "+r"(rc)
                     :
                     : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4",
                       "a5", "a6", "a7", "memory");
#else
#error "adjacent_calls.c: Arm or RISC-V"
#endif
}

int main(void)
{
    uint32_t rounds = 0;

    mcuprof_init();
    mcuprof_start();
    for (uint32_t r = 0; r < ROUNDS; r++) {
        three_in_a_row(first, second, (r & 1u) ? third_b : third_a);
        rounds++;
    }
    mcuprof_stop();

    expect_arc("main", "three_in_a_row", rounds);
    expect_arc("three_in_a_row", "first", n_first);
    expect_arc("three_in_a_row", "second", n_second);
    expect_arc("three_in_a_row", "third_a", n_third_a);
    expect_arc("three_in_a_row", "third_b", n_third_b);
    board_puts("EXPECT-INFO lost_arcs_table_full 0\n");
    board_puts("EXPECT-INFO arc_table_repairs 0\n");
    return mcuprof_write_semihosting("mcuprof.img") == 0 ? 0 : 1;
}
