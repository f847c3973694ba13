/*
 * main.c - an application on newlib-nano, profiled with mcuprof: a CRC and
 * a sum over a buffer, a sort through the C library's qsort() calling back
 * into profiled code, and two loops of known length for the time profile.
 * The results and what gprof must show go to printf (semihosting, through
 * newlib's rdimon); the profile is written through the runtime's own
 * semihosting, and exit() ends the run through newlib's.
 *
 * Each example stands alone, a folder a user can copy out of the kit, so
 * what it shares with the others and with boards/ is written again here on
 * purpose, not included from there.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mcuprof.h"

#define BUF_SIZE 128u
#define ROUNDS 4u
#define SORT_SIZE 64u
#define SPIN_A 3000000u /* 2 instructions per iteration: 3 parts ... */
#define SPIN_B 1000000u /* ... to 1 */

extern uint32_t SystemCoreClock;

static uint8_t buf[BUF_SIZE];
static uint32_t keys[SORT_SIZE];
static uint32_t compares;

__attribute__((noipa)) uint32_t sum_bytes(const uint8_t *p, uint32_t n)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noipa)) uint32_t crc_bit(uint32_t crc, uint8_t byte)
{
    crc ^= byte;
    for (int k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    return crc;
}

__attribute__((noipa)) uint32_t crc32(const uint8_t *p, uint32_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < n; i++)
        crc = crc_bit(crc, p[i]);
    return ~crc;
}

int compare_keys(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    compares++;
    return (x > y) - (x < y);
}

/* a countdown of exactly two instructions per iteration */
__attribute__((noipa)) void spin_a(uint32_t n)
{
    __asm__ volatile(".syntax unified\n1: subs %0, %0, #1\n\tbne 1b" : "+l"(n) : : "cc");
}

__attribute__((noipa)) void spin_b(uint32_t n)
{
    __asm__ volatile(".syntax unified\n1: subs %0, %0, #1\n\tbne 1b" : "+l"(n) : : "cc");
}

int main(void)
{
    uint32_t sum = 0, crc = 0;

    for (uint32_t i = 0; i < BUF_SIZE; i++)
        buf[i] = (uint8_t)(i * 7u);
    for (uint32_t i = 0; i < SORT_SIZE; i++)
        keys[i] = (i * 2654435761u) >> 7;

    mcuprof_init();
    if (mcuprof_sampler_start(SystemCoreClock, 10000) != MCUPROF_OK) {
        printf("sampler did not start\n");
        return 1;
    }
    mcuprof_start();
    for (uint32_t round = 0; round < ROUNDS; round++) {
        sum += sum_bytes(buf, BUF_SIZE);
        crc = crc32(buf, BUF_SIZE);
    }
    qsort(keys, SORT_SIZE, sizeof keys[0], compare_keys);
    spin_a(SPIN_A);
    spin_b(SPIN_B);
    mcuprof_stop();

    printf("sum %lu crc32 %08lx, %lu compares, smallest key %lu\n", (unsigned long)sum,
           (unsigned long)crc, (unsigned long)compares, (unsigned long)keys[0]);
    printf("EXPECT arc main sum_bytes %u\n", ROUNDS);
    printf("EXPECT arc main crc32 %u\n", ROUNDS);
    printf("EXPECT arc crc32 crc_bit %u\n", ROUNDS * BUF_SIZE);
    printf("EXPECT calls compare_keys %lu\n", (unsigned long)compares);
    printf("EXPECT arc main spin_a 1\n");
    printf("EXPECT arc main spin_b 1\n");
    /* spin_a : spin_b = 3 : 1, and they are nearly all of the time */
    printf("EXPECT share spin_a 75.0 3\n");
    printf("EXPECT share spin_b 25.0 3\n");
    return mcuprof_write_semihosting("mcuprof.img") == 0 ? 0 : 1;
}
