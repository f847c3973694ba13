/*
 * gen_image.c - writes a large profile image for the convert speed test:
 * 1 MB of histogram (524288 16-bit bins over 8 MB of code, 16-byte bins)
 * and 10,000 arcs, on a 32-bit little-endian ARM target. The contents are
 * a fixed pseudo-random sequence, so every run converts the same bytes.
 * Built from the test suite's image builder (tests/unit/image_builder.c),
 * which lays out every field independently of the product's reader.
 *
 *   gen_image OUT
 */
#include <stdio.h>
#include <stdlib.h>

#include "image_builder.h"

#define NBINS (512u * 1024u)
#define NARCS 10000u
#define CODE_LOW 0x08000000u

static uint32_t lcg_state = 12345u;

static uint32_t lcg(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state >> 8;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: gen_image OUT\n", stderr);
        return 2;
    }
    uint32_t *bins = malloc(NBINS * sizeof(*bins));
    struct tb_arc *arcs = malloc(NARCS * sizeof(*arcs));
    size_t cap = 2u * 1024u * 1024u;
    uint8_t *buf = malloc(cap);
    if (!bins || !arcs || !buf) {
        fputs("gen_image: out of memory\n", stderr);
        return 1;
    }
    for (uint32_t i = 0; i < NBINS; i++)
        bins[i] = lcg() % 8u == 0u ? lcg() % 65535u : 0u; /* mostly cold code, none saturated */
    for (uint32_t i = 0; i < NARCS; i++) {
        /* distinct call sites spread over the code, callees among 2000
         * function entries */
        arcs[i].frompc = CODE_LOW + (uint64_t)i * 800u + 4u * (lcg() % 100u) + 1u;
        arcs[i].selfpc = CODE_LOW + (uint64_t)(lcg() % 2000u) * 4096u + 9u;
        arcs[i].count = 1u + lcg() % 100000u;
    }
    struct tb_image d = {
        .ptr_size = 4,
        .machine = 40, /* EM_ARM */
        .image_addr = 0x20000000u,
        .rate = 10000,
        .bin_shift = 4,
        .counter_bytes = 2,
        .nranges = 1,
        .ranges = {{.low = CODE_LOW, .nbins = NBINS, .bins = bins}},
        .narcs = NARCS,
        .arcs = arcs,
        .arcs_capacity = 16384,
        .nbuckets = 16384,
        .hash_shift = 2,
        .state = 0,
    };
    size_t size = tb_build(&d, buf, cap);
    if (size == 0 || tb_write_file(argv[1], buf, size) != 0) {
        fprintf(stderr, "gen_image: cannot build or write %s\n", argv[1]);
        return 1;
    }
    printf("%zu\n", size);
    free(bins);
    free(arcs);
    free(buf);
    return 0;
}
