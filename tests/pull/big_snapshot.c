/*
 * big_snapshot.c - profile images with large keyed tables
 * (big_snapshot.h), through the tests' image builder.
 */
#include "big_snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "image_builder.h"

uint32_t bs_context_key(uint32_t i) { return i * 2654435761u; /* odd: every i its own key */ }
uint32_t bs_context_samples(uint32_t i, unsigned round) { return 1 + (i + round) % 3; }
uint32_t bs_task_samples(uint32_t i, unsigned round) { return (i + 2 * round) % 5; }
uint32_t bs_late_samples(uint32_t i, unsigned round) { return 1 + (i ^ round) % 4; }
uint32_t bs_late_missed(uint32_t i, unsigned round) { return (i + round) % 2; }
uint32_t bs_path_samples(uint32_t i, unsigned round) { return 1 + (i + round) % 2; }
uint32_t bs_arc_count(uint32_t i, unsigned round) { return 1 + i * 7 + round; }
uint32_t bs_bin(uint32_t i, unsigned round) { return (i + round) % 7; }
uint64_t bs_late_pc(uint32_t i) { return 0x8000u + 2u * i; }
uint64_t bs_arc_from(uint32_t i) { return 0x1001u + 4u * (i % 97); }
uint64_t bs_arc_self(uint32_t i) { return 0x3001u + 4u * (i / 97); }
uint64_t bs_path_frame(uint32_t i, unsigned k) { return k == 0 ? 0x1000u + 4u * (i % 1000) : 0x2000u + 4u * (i / 1000); }
uint16_t bs_path_task(uint32_t i, uint32_t n) { return (uint16_t)(i % (n < 65000 ? n : 65000)); }

uint8_t *bs_build(uint32_t n, unsigned tables, unsigned round, struct mp_image *img)
{
    static const uint8_t id[4] = {0xb1, 0x65, 0x0a, 0x75};
    static const char *const task_name = "task";
    uint32_t nt = (tables & BS_TASKS) ? n : 0, i;
    struct tb_image d;
    struct tb_arc *arcs = NULL;
    struct tb_context *ctx = NULL;
    struct tb_late *late = NULL;
    struct tb_path *paths = NULL;
    const char **names = NULL;
    uint32_t *tsamples = NULL, *pctx = NULL, *bins = NULL;
    uint16_t *ptask = NULL;
    uint8_t *buf = NULL;
    size_t cap = 4096 + (size_t)n * (16 + 8 + 24 + 16 + 40 + 4 + 8) + (size_t)BS_MAX_ARCS * 14, len;
    int ok = 0;

    tb_arm(&d);
    d.image_addr = 0x20000000;
    d.build_id_len = sizeof(id);
    d.build_id = id;
    d.bin_shift = 2;
    d.counter_bytes = 4;
    d.generation = round;
    d.nranges = 1;
    d.ranges[0].low = 0x1000;
    d.ranges[0].nbins = (tables & BS_BINS) ? n : 4;
    if (!(bins = calloc(d.ranges[0].nbins, sizeof(*bins))))
        goto out;
    for (i = 0; (tables & BS_BINS) && i < n; i++)
        bins[i] = bs_bin(i, round);
    d.ranges[0].bins = bins;
    if (tables & BS_ARCS) {
        d.narcs = n < BS_MAX_ARCS ? n : BS_MAX_ARCS;
        if (!(arcs = calloc(d.narcs, sizeof(*arcs))))
            goto out;
        for (i = 0; i < d.narcs; i++)
            arcs[i] = (struct tb_arc){bs_arc_from(i), bs_arc_self(i), bs_arc_count(i, round)};
        d.arcs = arcs;
    }
    if (tables & BS_CONTEXTS) {
        if (!(ctx = calloc(n, sizeof(*ctx))))
            goto out;
        for (i = 0; i < n; i++)
            ctx[i] = (struct tb_context){bs_context_key(i), bs_context_samples(i, round)};
        d.ncontexts = n;
        d.contexts = ctx;
    }
    if (nt) {
        if (!(names = calloc(n, sizeof(*names))) || !(tsamples = calloc(n, sizeof(*tsamples))))
            goto out;
        for (i = 0; i < n; i++) {
            names[i] = task_name; /* the handles differ */
            tsamples[i] = bs_task_samples(i, round);
        }
        d.ntasks = n;
        d.task_names = names;
        d.task_samples = tsamples;
    }
    if (tables & BS_LATE) {
        if (!(late = calloc(n, sizeof(*late))))
            goto out;
        for (i = 0; i < n; i++)
            late[i] = (struct tb_late){bs_late_pc(i), bs_late_samples(i, round), bs_late_missed(i, round)};
        d.has_late = 1;
        d.nlate = n;
        d.late = late;
        d.timing_flags = 1;
        d.samples_taken = 4 * n; /* each late sample is a sample taken, */
        d.missed_periods = n;    /* each missed period one missed */
    }
    if (tables & BS_PATHS) {
        if (!(paths = calloc(n, sizeof(*paths))) || !(pctx = calloc(n, sizeof(*pctx))) ||
            !(ptask = calloc(n, sizeof(*ptask))))
            goto out;
        for (i = 0; i < n; i++) {
            paths[i].samples = bs_path_samples(i, round);
            paths[i].depth = 2;
            paths[i].frames[0] = bs_path_frame(i, 0);
            paths[i].frames[1] = bs_path_frame(i, 1);
            pctx[i] = bs_context_key(i % 16);
            ptask[i] = nt ? bs_path_task(i, nt) : 0xFFFFu;
        }
        d.path_depth_max = 2;
        d.npaths = n;
        d.paths = paths;
        d.task_paths = 1;
        d.path_tasks = ptask;
        d.path_contexts = pctx;
    }
    if (!(buf = malloc(cap)) || !(len = tb_build(&d, buf, cap)) || mp_image_parse(img, "big", buf, len) < 0)
        goto out;
    ok = 1;
out:
    free(bins);
    free(arcs);
    free(ctx);
    free(names);
    free(tsamples);
    free(late);
    free(paths);
    free(pctx);
    free(ptask);
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}
