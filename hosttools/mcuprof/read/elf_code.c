/*
 * elf_code.c - the code ranges of a firmware ELF (elf_code.h).
 */
#include "elf_code.h"

#include <inttypes.h>
#include <stdlib.h>

#include "diag.h"
#include "elf_info.h"
#include "sort.h"

static int cmp_range(const void *pa, const void *pb)
{
    const struct mp_code_range *a = pa, *b = pb;

    return a->low < b->low ? -1 : a->low > b->low;
}

/* Sorted ranges joined where they overlap or lie MP_CODE_JOIN_GAP apart;
 * then, while there are too many, across the smallest gap. */
static size_t join(struct mp_code_range *r, size_t n)
{
    size_t i, k = 0;

    mp_sort(r, n, sizeof(*r), cmp_range);
    for (i = 0; i < n; i++) {
        if (k && r[i].low <= r[k - 1].high + MP_CODE_JOIN_GAP) {
            if (r[i].high > r[k - 1].high)
                r[k - 1].high = r[i].high;
        } else {
            r[k++] = r[i];
        }
    }
    while (k > MP_CODE_RANGES_MAX) {
        size_t best = 0;

        for (i = 1; i + 1 < k; i++)
            if (r[i + 1].low - r[i].high < r[best + 1].low - r[best].high)
                best = i;
        r[best].high = r[best + 1].high;
        for (i = best + 1; i + 1 < k; i++)
            r[i] = r[i + 1];
        k--;
    }
    return k;
}

int mp_elf_code_ranges(const char *path, struct mp_code_range *out, size_t *n)
{
    struct mp_code_range *all = NULL;
    size_t nall = 0, cap = 0;
    struct mp_elf_file f;
    int ret = -1;

    if (mp_elf_file_open(&f, path) < 0)
        return -1;
    for (size_t i = 1; i < f.shnum; i++) {
        const struct mp_elf_shdr *sh = &f.sh[i];

        if (sh->type == MP_SHT_NOBITS || sh->size == 0 ||
            (sh->flags & (MP_SHF_ALLOC | MP_SHF_EXECINSTR)) != (MP_SHF_ALLOC | MP_SHF_EXECINSTR))
            continue;
        if (sh->addr + sh->size < sh->addr) {
            mp_error(path, "executable section at 0x%" PRIx64 " of %" PRIu64 " bytes wraps the address space",
                     sh->addr, sh->size);
            goto out;
        }
        if (nall == cap) {
            struct mp_code_range *p;

            cap = cap ? 2 * cap : 16;
            if (!(p = realloc(all, cap * sizeof(*all)))) {
                mp_error(path, "out of memory for its sections");
                goto out;
            }
            all = p;
        }
        all[nall].low = sh->addr;
        all[nall].high = sh->addr + sh->size;
        nall++;
    }
    if (nall == 0) {
        mp_error(path, "no executable section (SHF_ALLOC and SHF_EXECINSTR, with bytes): nothing to bin PCs into");
        goto out;
    }
    *n = join(all, nall);
    for (size_t i = 0; i < *n; i++)
        out[i] = all[i];
    ret = 0;
out:
    free(all);
    mp_elf_file_close(&f);
    return ret;
}
