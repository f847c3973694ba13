/* hook.c - a stub of the runtime's call hook for tiny_fw.c, not built with
 * -pg; the vector table on Cortex-M. */
#include <stdint.h>

extern uint32_t __stack_top;
void reset_handler(void);
void systick_handler(void);

#if defined(__arm__)
__attribute__((naked)) void __gnu_mcount_nc(void)
{
    __asm__ volatile("push {r0}\n pop {r0}\n pop {lr}\n bx lr\n" ::: "memory");
}
__attribute__((section(".vectors"), used)) void (*const vectors[16])(void) = {
    (void (*)(void))&__stack_top, reset_handler, [15] = systick_handler};
#else
void _mcount(void) {}
#endif
