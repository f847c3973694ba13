/*
 * main.c - an application on picolibc, profiled with mcuprof: records
 * formatted with snprintf() and looked up with the C library's bsearch(),
 * which calls back into profiled code, and two loops of known length for
 * the time profile. The results and what gprof must show go to printf
 * (semihosting, through picolibc's libsemihost); the profile is written
 * through the runtime's own semihosting, and returning from main ends the
 * run through picolibc's exit.
 *
 * picolibc's crt0 points mtvec at its own trap reporter; the runtime's
 * default trap_vector takes it back before main (.preinit_array), so the
 * sampler's timer interrupt reaches the runtime.
 *
 * Each example stands alone, a folder a user can copy out of the kit, so
 * what it shares with the others and with boards/ is written again here on
 * purpose, not included from there.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcuprof.h"

#define MTIME_HZ 10000000u /* QEMU virt: mtime counts at 10 MHz */
#define IDS 48u
#define LOOKUPS 20u
#define SPIN_A 3000000u /* 2 instructions per iteration: 3 parts ... */
#define SPIN_B 1000000u /* ... to 1 */

static uint32_t ids[IDS]; /* sorted */
static uint32_t id_compares;

int compare_id(const void *key, const void *elem)
{
    uint32_t k = *(const uint32_t *)key, e = *(const uint32_t *)elem;
    id_compares++;
    return (k > e) - (k < e);
}

/* the length of the record "id=<id>" */
__attribute__((noipa)) size_t format_record(char *out, size_t size, uint32_t id)
{
    snprintf(out, size, "id=%lu", (unsigned long)id);
    return strlen(out);
}

__attribute__((noipa)) int find_id(uint32_t id)
{
    const uint32_t *hit = bsearch(&id, ids, IDS, sizeof ids[0], compare_id);
    return hit != NULL ? (int)(hit - ids) : -1;
}

/* a countdown of exactly two instructions per iteration */
__attribute__((noipa)) void spin_a(uint32_t n)
{
    __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
}

__attribute__((noipa)) void spin_b(uint32_t n)
{
    __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
}

int main(void)
{
    char record[16];
    size_t chars = 0;
    int found = 0;

    for (uint32_t i = 0; i < IDS; i++)
        ids[i] = 1000u + 7u * i;

    mcuprof_init();
    if (mcuprof_sampler_start(MTIME_HZ, 10000) != MCUPROF_OK) {
        printf("sampler did not start\n");
        return 1;
    }
    mcuprof_start();
    for (uint32_t i = 0; i < LOOKUPS; i++) {
        uint32_t id = 1000u + 5u * i; /* every 7th is in the table */
        chars += format_record(record, sizeof record, id);
        found += find_id(id) >= 0;
    }
    spin_a(SPIN_A);
    spin_b(SPIN_B);
    mcuprof_stop();

    printf("%u records, %lu characters, %d found, %lu compares\n", LOOKUPS, (unsigned long)chars,
           found, (unsigned long)id_compares);
    printf("EXPECT arc main format_record %u\n", LOOKUPS);
    printf("EXPECT arc main find_id %u\n", LOOKUPS);
    printf("EXPECT calls compare_id %lu\n", (unsigned long)id_compares);
    printf("EXPECT arc main spin_a 1\n");
    printf("EXPECT arc main spin_b 1\n");
    /* spin_a : spin_b = 3 : 1, and they are nearly all of the time */
    printf("EXPECT share spin_a 75.0 3\n");
    printf("EXPECT share spin_b 25.0 3\n");
    return mcuprof_write_semihosting("mcuprof.img") == 0 ? 0 : 1;
}
