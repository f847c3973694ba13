/*
 * main.c - a user's application, profiled with mcuprof: a checksum over a
 * buffer, done two ways. Writes the profile through semihosting; the
 * startup ends the run with main's return value. Cortex-M (startup.c,
 * app.ld) and RISC-V (riscv/startup.S, riscv/app.ld).
 *
 * Each example stands alone, a folder a user can copy out of the kit, so
 * what it shares with the others and with boards/ is written again here on
 * purpose, not included from there.
 */
#include <stdint.h>

#include "mcuprof.h"

#ifdef __riscv
#define TIMER_HZ 10000000u /* QEMU virt: mtime counts at 10 MHz */
#else
#define TIMER_HZ 25000000u /* MPS2: SysTick counts the 25 MHz processor clock */
#endif
#define BUF_SIZE 512u

static uint8_t buf[BUF_SIZE];

__attribute__((noinline)) uint32_t sum_bytes(const uint8_t *p, uint32_t n)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += p[i];
    return s;
}

__attribute__((noinline)) uint32_t crc_bit(uint32_t crc, uint8_t byte)
{
    crc ^= byte;
    for (int k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    return crc;
}

__attribute__((noinline)) uint32_t crc32(const uint8_t *p, uint32_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < n; i++)
        crc = crc_bit(crc, p[i]);
    return ~crc;
}

volatile uint32_t result;

/* noinline: with -flto GCC sees that Reset_Handler is main's only caller
 * and folds main into it; main's calls would then show under
 * Reset_Handler (which itself must not call the hook). */
__attribute__((noinline)) int main(void)
{
    for (uint32_t i = 0; i < BUF_SIZE; i++)
        buf[i] = (uint8_t)(i * 7u);

    mcuprof_init();
    mcuprof_sampler_start(TIMER_HZ, 10000);
    mcuprof_start();
    for (int round = 0; round < 20; round++) {
        result += sum_bytes(buf, BUF_SIZE);
        result += crc32(buf, BUF_SIZE);
    }
    mcuprof_stop();

    return mcuprof_write_semihosting("mcuprof.img") == 0 ? 0 : 1;
}
