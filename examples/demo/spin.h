/*
 * spin.h - a countdown loop of exactly two instructions per iteration
 * (subtract, branch), on every supported architecture, so that a
 * function's instruction count is known from its argument.
 */
#ifndef SPIN_H
#define SPIN_H

#if defined(__arm__)
/* GCC hands ARMv6-M inline assembly to the assembler in divided syntax,
 * hence the explicit .syntax. */
#define SPIN_LOOP(n) \
    __asm__ volatile(".syntax unified\n1: subs %0, %0, #1\n\tbne 1b" : "+l"(n) : : "cc")
/* The same loop starting on a 16-byte boundary: one histogram bin. */
#define SPIN_LOOP_ALIGNED(n) \
    __asm__ volatile(".syntax unified\n\t.balign 16\n1: subs %0, %0, #1\n\tbne 1b" : "+l"(n) : : "cc")
#elif defined(__riscv)
#define SPIN_LOOP(n) __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n))
#define SPIN_LOOP_ALIGNED(n) \
    __asm__ volatile(".balign 16\n1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n))
#else
#error "no spin loop for this architecture"
#endif

#endif
