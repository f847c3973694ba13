/*
 * check_sweep.c - which function decodes which bytes of code, for
 * `mcuprof check` (check_model.h).
 *
 * Symbols may overlap: several names for one function (aliases, weak
 * handlers), a label typed as a function inside another, or a crafted ELF
 * whose thousands of symbols all run to the end of the code. Decoding
 * each symbol's whole range would decode the shared bytes once per symbol
 * (time and branch records quadratic in the symbols). So each byte is
 * decoded once, by the function it belongs to most closely: of the
 * functions whose range holds it, the one that starts last. Of the
 * functions that start at one address the longest is decoded and the
 * others take what it found (whether it calls the hook). A function whose
 * range another's interrupts is decoded in parts, before and after; each
 * part starts afresh (a hook call is the function's first instructions,
 * so what the parts cut is only the branches of the other's bytes).
 *
 * The sweep: functions by start address; a stack of those begun and not
 * ended, the last begun on top. Between one start and the next, the top
 * decodes up to its end or the next start, and a function that has ended
 * is dropped. Each step either reaches the next start or drops one
 * function, so there are at most twice as many parts as functions, and
 * the parts never overlap: O(functions + code bytes).
 */
#include "check_model.h"

#include <stdlib.h>

#include "sort.h"

/* Is symbol I the one decoded for its address (see cmp_sym)? */
static int decoded_here(const struct ck *c, size_t i)
{
    const struct ck_sym *s = &c->syms[i];

    return s->func && s->size && s->range == CK_RANGE_OK &&
           (i == 0 || !c->syms[i - 1].func || c->syms[i - 1].addr != s->addr);
}

static int cmp_branch(const void *x, const void *y)
{
    const struct ck_branch *a = x, *b = y;

    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    return a->pc < b->pc ? -1 : a->pc > b->pc;
}

int ck_scan_all(struct ck *c)
{
    size_t *stack, top = 0, next;

    stack = malloc((c->nsyms ? c->nsyms : 1) * sizeof(*stack));
    if (!stack)
        return mp_error(c->path, "out of memory for %zu symbols", c->nsyms);
    for (size_t i = 0; i < c->nsyms; i = next) {
        uint64_t cur, limit;

        for (next = i + 1; next < c->nsyms && !decoded_here(c, next); next++)
            ;
        if (!decoded_here(c, i))
            continue;
        stack[top++] = i;
        cur = c->syms[i].addr;
        limit = next < c->nsyms ? c->syms[next].addr : UINT64_MAX;
        while (top && cur < limit) {
            const struct ck_sym *f = &c->syms[stack[top - 1]];
            uint64_t end = f->addr + f->size; /* range CK_RANGE_OK: no wrap */

            if (end <= cur) {
                top--;
                continue;
            }
            if (c->arch->check_scan(c, stack[top - 1], cur, end < limit ? end : limit) < 0) {
                free(stack);
                return -1;
            }
            cur = end < limit ? end : limit;
        }
    }
    free(stack);
    /* the other names of a decoded function */
    for (size_t i = 1; i < c->nsyms; i++) {
        if (c->syms[i].func && c->syms[i - 1].func && c->syms[i].addr == c->syms[i - 1].addr)
            c->syms[i].profiled = c->syms[i - 1].profiled;
    }
    mp_sort(c->br, c->nbr, sizeof(*c->br), cmp_branch);
    return 0;
}

const struct ck_branch *ck_branches_from(const struct ck *c, size_t fi, size_t *n)
{
    size_t lo = 0, hi = c->nbr, end;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (c->br[mid].from < fi)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (end = lo; end < c->nbr && c->br[end].from == fi; end++)
        ;
    *n = end - lo;
    return c->br + lo;
}
