/*
 * path_print.c - the "call paths" block of `info`: how full the image's
 * path table is, the samples it could not place, and its heaviest paths,
 *
 *     main > work_b > ender  900 (45.00 %)
 *
 * outermost function first, each share of every sample the table counted
 * (the paths' and the lost ones). A path whose outer frames are missing
 * starts with the pseudo-frame the folded format gives it, so it never
 * reads as if its outermost function were a root.
 */
#include "path_print.h"

#include <inttypes.h>
#include <stdint.h>

#include "callsite.h"

#define LABEL "  %-28s "

/* Paths listed. */
#define TOP_PATHS 10u

/* A deeper path shows its outermost and innermost frames only: a deep
 * recursion would make one line of hundreds of names, and the innermost
 * frames are where the time is. The folded and JSON formats have every
 * frame. */
#define SHOWN_OUTER 3u
#define SHOWN_INNER 8u

static void print_frame(FILE *f, const struct mp_image *img, const struct mp_functab *tab, uint32_t i, unsigned k)
{
    uint64_t addr = mp_selfpc(img->machine, mp_image_path_frame(img, i, k));
    long fn = tab ? mp_functab_find(tab, addr) : -1;

    if (fn >= 0)
        fputs(tab->f[fn].name, f);
    else
        fprintf(f, "0x%" PRIx64, addr);
}

static void print_path(FILE *f, const struct mp_image *img, const struct mp_functab *tab, uint32_t i, uint64_t total)
{
    unsigned depth, flags, k;
    uint32_t samples;

    mp_image_path(img, i, &samples, &depth, &flags);
    fputs("    ", f);
    if (flags & MCUPROF_PATH_TRUNCATED)
        fputs("[truncated] > ", f);
    if (flags & MCUPROF_PATH_CUT)
        fputs("[cut at task switch] > ", f);
    if (!depth)
        fputs("[no profiled function]", f);
    for (k = 0; k < depth; k++) {
        if (depth > SHOWN_OUTER + SHOWN_INNER + 1 && k == SHOWN_OUTER) {
            fprintf(f, " > ... %u frames ...", depth - SHOWN_OUTER - SHOWN_INNER);
            k = depth - SHOWN_INNER;
        }
        if (k)
            fputs(" > ", f);
        print_frame(f, img, tab, i, k);
    }
    fprintf(f, "  %" PRIu32 " (%.2f %%)%s\n", samples, total ? 100.0 * samples / (double)total : 0.0,
            samples == UINT32_MAX ? " (saturated: at least)" : "");
}

void mp_print_paths(FILE *f, const struct mp_image *img, const struct mp_functab *tab)
{
    const struct mp_ext *e;
    uint32_t top[TOP_PATHS], i, with_samples = 0;
    unsigned ntop = 0, j;
    uint64_t total;

    if (img->paths < 0)
        return;
    e = &img->ext[img->paths];
    total = e->lost;
    /* the heaviest first; of equal ones the first in the table */
    for (i = 0; i < e->used; i++) {
        unsigned depth, flags;
        uint32_t samples, s;

        mp_image_path(img, i, &samples, &depth, &flags);
        if (!samples)
            continue; /* drained, or never sampled since */
        with_samples++;
        total += samples;
        for (j = ntop; j > 0; j--) {
            mp_image_path(img, top[j - 1], &s, &depth, &flags);
            if (s >= samples)
                break;
            if (j < TOP_PATHS)
                top[j] = top[j - 1];
        }
        if (j < TOP_PATHS) {
            top[j] = i;
            ntop += ntop < TOP_PATHS;
        }
    }
    fprintf(f, "call paths\n");
    fprintf(f, LABEL "%" PRIu32 " of %" PRIu32 " (%" PRIu32 " with samples), up to %u frames each\n", "paths in use",
            e->used, e->capacity, with_samples, img->path_depth_max);
    fprintf(f, LABEL "%" PRIu32 " samples (the table was full)%s\n", "lost", e->lost,
            e->lost == UINT32_MAX ? " (saturated: at least)" : "");
    fprintf(f, LABEL "%" PRIu32 " samples (deeper than the shadow stack: outer frames missing)%s\n", "truncated",
            e->invalid, e->invalid == UINT32_MAX ? " (saturated: at least)" : "");
    if (!ntop) {
        fprintf(f, "  no path has samples\n");
        return;
    }
    fprintf(f, "  top %u paths by samples (share of the %" PRIu64 " the table counted, lost included):\n", ntop, total);
    for (j = 0; j < ntop; j++)
        print_path(f, img, tab, top[j], total);
}
