/*
 * fuzz_image.c - fuzz target: a profile image as `pull` reads it from a
 * target and `info`, `report` and `convert` read it from a file. Parsed
 * (header, ranges, arcs and every extension table kind of
 * mcuprof/image.h: contexts, tasks, call paths old and new, spill, late
 * samples, blockers, held-off samples), made a model, printed as `info`
 * prints it (time profile, contexts, call paths, sampler timing, each
 * task's profile) and written in every output format; and `mcuprof info`
 * run on it.
 */
#include <stdlib.h>

#include "context_print.h"
#include "fuzz_common.h"
#include "path_print.h"
#include "task_profile.h"
#include "timing.h"
#include "trust.h"

/* Every task's profile, as `report --task NAME` computes it. */
static void task_profiles(const struct mp_model *m)
{
    char names[4096];
    size_t i;

    if (!mp_task_profile_possible(m))
        return;
    mp_task_profile_names(m, names, sizeof(names));
    for (i = 0; i < m->ntasks && i < 16; i++) {
        struct mp_task_profile tp;

        if (mp_task_profile_compute(&tp, m, mp_model_task_label(m, (long)i)) == 0)
            mp_task_profile_free(&tp);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct mp_trust_opts opts = MP_TRUST_DEFAULTS;
    FILE *sink;
    struct mp_image img;
    struct mp_model m;

    fuzz_begin();
    sink = fuzz_sink();
    if (mp_image_parse(&img, "fuzz", data, size) == 0 && mp_model_from_image(&m, &img) == 0) {
        mp_trust_print(sink, &m, &opts);
        mp_trust_warn(&m, &opts);
        mp_print_contexts(sink, &m);
        mp_print_paths(sink, &m);
        mp_print_timing(sink, &m);
        mp_timing_warn(&m, opts.warn_pct);
        task_profiles(&m);
        fuzz_write_all(&m);
        mp_model_free(&m);
    }
    {
        const char *const info[] = {"mcuprof", "info", fuzz_file(0, data, size), NULL};

        fuzz_tool(info);
    }
    fuzz_end();
    return 0;
}
