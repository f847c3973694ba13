/* mem_link.c - a link writing into a test's buffer (mem_link.h). */
#include "mem_link.h"

#include <setjmp.h>
#include <stdarg.h>
#include <string.h>

#include <cmocka.h>

static uint8_t *target_mem;
static size_t target_len;

static int mem_write(struct mp_link *l, uint64_t addr, const uint8_t *b, size_t len)
{
    (void)l;
    assert_true(addr >= MEM_LINK_BASE && addr - MEM_LINK_BASE + len <= target_len);
    memcpy(target_mem + (addr - MEM_LINK_BASE), b, len);
    return 0;
}

static const struct mp_link_ops mem_ops = {NULL, mem_write, NULL, NULL, NULL, NULL, NULL, NULL};

void mem_link_open(struct mp_link *l, uint8_t *mem, size_t len)
{
    static const struct mp_link live = {&mem_ops, "mem", 1, 1, 1, 0, 1, 4096, NULL, NULL, 4};

    *l = live;
    target_mem = mem;
    target_len = len;
}
