/*
 * arcs_equal A.img B.img - exit 0 when two profile images hold the same
 * arcs (call site, callee, count), in any order; otherwise list the
 * differences and exit 1. Used to compare an image pulled from a running
 * core with the one the firmware wrote through semihosting.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_io.h"
#include "image_read.h"

static int cmp(const void *a, const void *b)
{
    const struct mp_arc *x = a, *y = b;

    if (x->frompc != y->frompc)
        return x->frompc < y->frompc ? -1 : 1;
    if (x->selfpc != y->selfpc)
        return x->selfpc < y->selfpc ? -1 : 1;
    return x->count < y->count ? -1 : x->count > y->count;
}

static struct mp_arc *load(const char *path, uint32_t *n, uint8_t **data)
{
    struct mp_image img;
    struct mp_arc *arcs;
    size_t len;
    uint32_t i;

    if (mp_read_file(path, (size_t)1 << 30, data, &len) < 0 || mp_image_parse(&img, path, *data, len) < 0)
        exit(2);
    arcs = calloc(img.arcs_used + 1u, sizeof(*arcs));
    if (!arcs)
        exit(2);
    for (i = 0; i < img.arcs_used; i++)
        mp_image_arc(&img, i + 1, &arcs[i]);
    qsort(arcs, img.arcs_used, sizeof(*arcs), cmp);
    *n = img.arcs_used;
    return arcs;
}

int main(int argc, char **argv)
{
    struct mp_arc *a, *b;
    uint8_t *da, *db;
    uint32_t na, nb, i;
    int same;

    if (argc != 3) {
        fprintf(stderr, "usage: arcs_equal A.img B.img\n");
        return 2;
    }
    a = load(argv[1], &na, &da);
    b = load(argv[2], &nb, &db);
    same = na == nb && (na == 0 || memcmp(a, b, na * sizeof(*a)) == 0);
    if (!same) {
        printf("%s: %" PRIu32 " arcs, %s: %" PRIu32 " arcs\n", argv[1], na, argv[2], nb);
        for (i = 0; i < na || i < nb; i++) {
            if (i < na)
                printf("  A 0x%" PRIx64 " -> 0x%" PRIx64 " %" PRIu32 "\n", a[i].frompc, a[i].selfpc, a[i].count);
            if (i < nb)
                printf("  B 0x%" PRIx64 " -> 0x%" PRIx64 " %" PRIu32 "\n", b[i].frompc, b[i].selfpc, b[i].count);
        }
    } else {
        printf("arcs_equal: %" PRIu32 " arcs, identical\n", na);
    }
    free(a);
    free(b);
    free(da);
    free(db);
    return same ? 0 : 1;
}
