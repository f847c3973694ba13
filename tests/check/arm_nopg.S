/* Firmware with the runtime but no function compiled with -pg. */
    .syntax unified
    .thumb
    .text
    .global main
    .type main, %function
    .thumb_func
main:
    bx lr
    .size main, . - main
    .global __gnu_mcount_nc
    .type __gnu_mcount_nc, %function
    .thumb_func
__gnu_mcount_nc:
    bx lr
    .size __gnu_mcount_nc, . - __gnu_mcount_nc
