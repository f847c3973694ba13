#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "build_check.h"
#include "commands.h"
#include "context_print.h"
#include "model.h"
#include "diag.h"
#include "file_io.h"
#include "format_json.h"
#include "gmon_read.h"
#include "image_read.h"
#include "model_load.h"
#include "path_print.h"
#include "text_safe.h"
#include "timing.h"
#include "trust.h"

static void mp_help_info(FILE *f)
{
    fputs("Usage: mcuprof info FILE [--elf ELF] [--top N] [--warn PCT]\n"
          "                    [--shared-threshold PCT] [--min-samples N] [--no-demangle]\n"
          "       mcuprof info FILE --json [--elf ELF] [--no-demangle]\n"
          "\n"
          "Describe a profile image or a gmon.out (GNU tagged or BSD 4.4).\n"
          "\n"
          "For an image: byte order, address width, machine, where it lives, the\n"
          "build-id, the arc table geometry, the histogram ranges, the live state,\n"
          "every counter of what was not recorded, how many arcs and bins are\n"
          "saturated, and the spill table (bins carried past 65535, lost to a full\n"
          "table). For a gmon.out: its histogram records, arcs and total calls\n"
          "(byte order and address width are inferred: gmon.out does not state them).\n"
          "An image with a call-path table (a PATHS build) also gets how full that\n"
          "table is, what it lost and the ten paths with the most samples (named\n"
          "with --elf).\n"
          "\n"
          "What the sampler could not see (sampler timing): how long interrupts were\n"
          "masked and the functions that time was charged to (named with --elf), the\n"
          "samples it took late by less than a period, the time it was held off by a\n"
          "handler it cannot preempt (in no function: the shares are of the time it\n"
          "could see), each interrupt enabled at a priority it cannot preempt with the\n"
          "call that fixes it, and a lateness clock it had to drop.\n"
          "\n"
          "For an image it also says how far the time profile can be trusted: samples\n"
          "taken and binned, the 95 % uncertainty of a 10 % share, and warnings (on\n"
          "stderr) for lost samples, missed periods, deferred samples, interrupts the\n"
          "sampler cannot preempt and too few samples. With the\n"
          "firmware's ELF it charges every bin to functions exactly as gprof does and\n"
          "lists the bins gprof splits between functions, and each function's self\n"
          "samples with their share of samples_taken, its 95 % Wilson interval and\n"
          "the percentage gprof will print.\n"
          "\n"
          "With --json: the profile as one JSON document on stdout, the document\n"
          "'convert --format json' writes (docs/formats/json.md), for scripts. FILE\n"
          "may also be such a document, read back; a gmon.out's says what its records\n"
          "were too (member \"gmon\"). With --elf an image is checked against the ELF\n"
          "as convert checks it. --top and the trust options do not apply.\n"
          "\n"
          "  -e, --elf ELF              the firmware's ELF (same machine as the image)\n"
          "  -j, --json                 the JSON document instead of the text\n"
          "      --top N                functions listed (default 20)\n"
          MP_TRUST_HELP
          "      --no-demangle          C++ names as the ELF spells them (not demangled)\n"
          "  -h, --help                 this text\n",
          f);
}

#define LABEL "  %-28s "

static void print_build_id(const struct mp_model *m)
{
    unsigned i;

    printf(LABEL, "build-id");
    if (m->build_id_len == 0)
        printf("none");
    for (i = 0; i < m->build_id_len; i++)
        printf("%02x", m->build_id[i]);
    printf("\n");
}

static void print_identity(const struct mp_model *m, const char *path)
{
    const char *machine = mp_machine_name(m->machine);

    printf("%s: profile image, format version %u\n", mp_esc(path), (unsigned)m->image_version);
    printf(LABEL "%s\n", "byte order", m->big ? "big-endian" : "little-endian");
    printf(LABEL "%u bytes\n", "pointer size", m->ptr_size);
    printf(LABEL "%u (%s)\n", "machine", (unsigned)m->machine, machine ? machine : "unknown");
    printf(LABEL "0x%" PRIx64 "\n", "image address", m->header.image_addr);
    printf(LABEL "0x%" PRIx32 " (%" PRIu32 " bytes)\n", "image size", m->header.image_size, m->header.image_size);
    print_build_id(m);
}

static void print_arcs(const struct mp_model *m)
{
    const struct mp_model_header *h = &m->header;

    printf("arcs\n");
    printf(LABEL "0x%" PRIx32 ", %u-byte records\n", "table offset", h->arcs_offset, h->arc_record_size);
    printf(LABEL "%" PRIu32 "\n", "capacity", h->arcs_capacity);
    printf(LABEL "%zu\n", "used", m->narcs);
    printf(LABEL "%" PRIu64 "%s\n", "arc_table_repairs", m->c.arc_table_repairs,
           m->c.arc_table_repairs ? " (the firmware wrote into the image: chains were cut)" : "");
    printf(LABEL "at 0x%" PRIx32 "\n", "links", h->links_offset);
    printf(LABEL "%" PRIu32 " at 0x%" PRIx32 "\n", "buckets", h->nbuckets, h->buckets_offset);
    printf(LABEL "%u\n", "hash shift", h->hash_shift);
    printf(LABEL "%" PRIu64 "\n", "total calls", m->c.total_calls);
    printf(LABEL "%" PRIu64 "\n", "saturated arcs", m->c.saturated_arcs);
    printf(LABEL "%" PRIu64 " arcs, %" PRIu64 " calls\n", "callers outside code", m->c.outside_arcs,
           m->c.outside_calls);
    if (mp_arch_of(m->machine))
        printf(LABEL "%s\n", "call sites written", mp_arch_of(m->machine)->callsite_rule);
    else
        printf(LABEL "%s\n", "call sites written", "frompc as recorded (unknown machine)");
}

static void print_histogram(const struct mp_model *m)
{
    const struct mp_model_header *h = &m->header;
    const struct mp_model_tables *t = &m->tables;
    size_t r;

    printf("histogram\n");
    if (m->nranges == 0) {
        printf(LABEL "%s\n", "ranges", "none");
    } else {
        printf(LABEL "%" PRIu64 " bytes (shift %u)\n", "bin size", (uint64_t)1 << m->bin_shift, m->bin_shift);
        printf(LABEL "%u bytes\n", "counter width", m->counter_bytes);
    }
    printf(LABEL "%" PRIu32 " Hz%s\n", "sample rate", m->sample_rate_hz,
           m->sample_rate_hz ? "" : " (sampler never ran)");
    if (m->c.timer_period)
        printf(LABEL "%" PRIu32 " ticks\n", "timer period", m->c.timer_period);
    else
        printf(LABEL "unknown\n", "timer period");
    printf(LABEL "%u %% of the period%s\n", "jitter", m->c.jitter_percent,
           m->c.jitter_percent ? "" : " (a fixed period)");
    for (r = 0; r < m->nranges; r++) {
        const struct mp_model_range *rg = &m->ranges[r];
        char label[32];

        snprintf(label, sizeof(label), "range %zu", r);
        printf(LABEL "0x%" PRIx64 "..0x%" PRIx64 ", %" PRIu64 " bins at 0x%" PRIx32 ", %" PRIu64 " samples\n",
               label, rg->low, rg->high, rg->nbins, h->hist_offset[r], rg->samples);
    }
    printf(LABEL "%" PRIu64 "\n", "saturated bins", m->c.saturated_bins);
    if (t->has_spill) /* bins that passed their counter's maximum (spill_read.c) */
        printf(LABEL "%" PRIu32 " of %" PRIu32 " bins carried, %" PRIu64 " samples; %" PRIu32 " lost to a full table\n",
               "spill table", t->spill_used, t->spill_capacity, t->spill_samples, t->spill_lost);
}

static void print_state(const struct mp_model *m)
{
    const struct mp_model_counters *c = &m->c;
    unsigned i;

    printf("state\n");
    printf(LABEL "0x%" PRIx32 " (arcs %s, sampling %s%s)\n", "state", m->header.state,
           m->header.state & MCUPROF_STATE_ARCS_Msk ? "on" : "off",
           m->header.state & MCUPROF_STATE_SAMPLING_Msk ? "on" : "off",
           m->header.state & MCUPROF_STATE_FROZEN_Msk ? ", frozen" : "");
    printf(LABEL "%" PRIu32 "\n", "freeze_request", m->header.freeze_request);
    printf(LABEL "%" PRIu32 "\n", "freeze_ack", m->header.freeze_ack);
    printf(LABEL "%" PRIu32 "\n", "generation", c->generation);
    printf("not recorded\n");
    for (i = 0; i < MP_LOST_COUNT; i++)
        printf(LABEL "%" PRIu64 "%s\n", mp_lost_names[i], c->lost[i],
               c->lost[i] == UINT32_MAX ? " (saturated: at least)" : "");
    printf(LABEL "%" PRIu64 "\n", "samples_taken", c->samples_taken);
    printf(LABEL "%" PRIu64 "%s\n", "missed_periods", c->missed_periods,
           c->missed_periods == UINT32_MAX ? " (saturated: at least)" : "");
    printf(LABEL "%s\n", "missed_source", mp_missed_source_name(c->missed_source));
    /* with deferrals counted, the sampler timing block says more */
    if (c->missed_source == MCUPROF_MISSED_NONE && c->samples_taken && !(c->timing_flags & MCUPROF_TIMING_DEFERRED))
        printf("  missed periods: not measurable on this core (SysTick without a cycle counter;"
               " register a clock with mcuprof_sampler_set_clock)\n");
}

/* The build-id line says "none"; with the ELF, a missing build-id gets the
 * warning convert and report give (nothing shows the two belong together).
 * The image is described whatever its build-id: only the warning. */
static void warn_build_id(const struct mp_model *m, const char *elf_path)
{
    struct mp_elf_info elf;

    if (mp_elf_read(&elf, elf_path) == 0)
        mp_build_id_missing(m->name, m->build_id_len, &elf);
}

/* An image: what it is and holds, the sampler's timing, the samples by
 * context, task and call path, and how far its time profile can be
 * trusted, all from its model (functions named when the ELF is given). */
static int info_image(const char *path, const uint8_t *data, size_t len, const char *elf,
                      const struct mp_trust_opts *o)
{
    struct mp_image_elf e = {elf, 0, 0, 0};
    struct mp_model m;

    if (mp_model_load_image(&m, path, data, len, &e) < 0)
        return MP_EXIT_FAIL;
    if (elf)
        warn_build_id(&m, elf);
    print_identity(&m, path);
    print_arcs(&m);
    print_histogram(&m);
    print_state(&m);
    mp_print_timing(stdout, &m);
    if (m.has_contexts || m.has_tasks)
        mp_print_contexts(stdout, &m);
    mp_print_paths(stdout, &m);
    mp_trust_print(stdout, &m, o);
    fflush(stdout);
    mp_trust_warn(&m, o);
    mp_timing_warn(&m, o->warn_pct);
    mp_model_free(&m);
    return MP_EXIT_OK;
}

static int info_gmon(const char *path, const uint8_t *data, size_t len)
{
    struct mp_gmon_info g;
    uint32_t i;

    if (mp_gmon_parse(&g, path, data, len) < 0)
        return MP_EXIT_FAIL;
    printf("%s: gmon.out, %s format\n", mp_esc(path),
           g.format == MP_GMON_GNU ? "GNU tagged" : "BSD 4.4");
    if (g.format == MP_GMON_GNU)
        printf(LABEL "%" PRIu32 "\n", "version", g.version);
    printf(LABEL "%s (inferred)\n", "byte order", g.big ? "big-endian" : "little-endian");
    printf(LABEL "%u bytes (inferred)\n", "address size", g.ptr_size);
    printf(LABEL "%" PRIu32 "\n", "histogram records", g.nhist);
    for (i = 0; i < g.nhist && i < MP_GMON_HIST_KEEP; i++) {
        const struct mp_gmon_hist *h = &g.hist[i];
        char label[32];

        snprintf(label, sizeof(label), "histogram %" PRIu32, i);
        printf(LABEL "0x%" PRIx64 "..0x%" PRIx64 ", %" PRIu32 " bins, %" PRIu32
                     " Hz, %" PRIu64 " samples\n",
               label, h->low, h->high, h->nbins, h->rate, h->samples);
    }
    if (g.nhist > MP_GMON_HIST_KEEP)
        printf(LABEL "%" PRIu32 " more not shown\n", "", g.nhist - MP_GMON_HIST_KEEP);
    printf(LABEL "%" PRIu32 "\n", "arc records", g.narcs);
    printf(LABEL "%" PRIu64 "\n", "total calls", g.total_calls);
    if (g.nbb)
        printf(LABEL "%" PRIu32 "\n", "basic-block records", g.nbb);
    return MP_EXIT_OK;
}

static void json_gmon(struct mp_jw *w, const struct mp_gmon_info *g)
{
    mp_jw_key(w, "gmon");
    mp_jw_object(w, 1);
    mp_jw_kstring(w, "format", g->format == MP_GMON_GNU ? "gnu" : "bsd");
    mp_jw_kuint(w, "gnu_version", g->format == MP_GMON_GNU ? g->version : 0);
    mp_jw_kuint(w, "histogram_records", g->nhist);
    mp_jw_kuint(w, "arc_records", g->narcs);
    mp_jw_kuint(w, "basic_block_records", g->nbb);
    mp_jw_end(w);
}

/* The JSON document of FILE on stdout: the model convert would write
 * (with the source lines when the ELF has them), so a script reads the
 * same from either. Everything that can fail is done before the first
 * byte is printed. */
static int info_json(const char *path, const char *elf)
{
    enum mp_input_kind kind;
    struct mp_gmon_info g;
    struct mp_model m;
    struct mp_jw w;
    uint8_t *data = NULL;
    size_t len;
    int ret = MP_EXIT_FAIL;

    /* read once: a pipe or FIFO cannot be read again */
    mp_file_note_input(path);
    if (elf)
        mp_file_note_input(elf);
    if (mp_read_file(path, MP_IMAGE_MAX, &data, &len) < 0)
        return MP_EXIT_FAIL;
    if (mp_model_load_bytes(&m, path, data, len, elf, &kind) < 0) {
        free(data);
        return MP_EXIT_FAIL;
    }
    /* lines only for functions named from this ELF just now: a document
     * that named its own keeps what it had */
    if (elf && m.elf_path && strcmp(m.elf_path, elf) == 0 && !m.nlines && !m.nlinerows && !m.lines_missing &&
        mp_model_attach_lines(&m) < 0)
        goto out;
    /* what a gmon.out's records were, beyond the model they add up to */
    if (mp_json_check(&m) < 0 || (kind == MP_INPUT_GMON && mp_gmon_parse(&g, path, data, len) < 0))
        goto out;
    mp_jw_init(&w, stdout);
    mp_json_profile(&w, &m);
    if (kind == MP_INPUT_GMON)
        json_gmon(&w, &g);
    mp_jw_end(&w);
    if (fflush(stdout) != 0 || ferror(stdout))
        mp_error(NULL, "info --json: write error on the standard output");
    else
        ret = MP_EXIT_OK;
out:
    mp_model_free(&m);
    free(data);
    return ret;
}

static int info(const char *path, const char *elf, const struct mp_trust_opts *o)
{
    uint8_t *data = NULL;
    size_t len;
    int ret;

    if (mp_read_file(path, MP_IMAGE_MAX, &data, &len) < 0)
        return MP_EXIT_FAIL;
    /* An image is recognised by its magic; anything else may be a gmon.out,
     * and an empty file is reported by the image reader. */
    if (mp_input_kind(data, len) == MP_INPUT_IMAGE) {
        ret = info_image(path, data, len, elf, o);
    } else {
        struct mp_model m;
        enum mp_input_kind kind;

        /* with an ELF, the profile must be its firmware's, as everywhere */
        ret = MP_EXIT_FAIL;
        if (!elf)
            ret = info_gmon(path, data, len);
        else if (mp_model_load_bytes(&m, path, data, len, elf, &kind) == 0) {
            ret = info_gmon(path, data, len);
            mp_model_free(&m);
        }
    }
    free(data);
    return ret;
}

static int mp_cmd_info(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"elf", required_argument, NULL, 'e'},
        {"top", required_argument, NULL, 'T'},
        {"json", no_argument, NULL, 'j'},
        MP_TRUST_LONGOPTS,
        MP_NO_DEMANGLE_LONGOPT,
        MP_GROUP_CLONES_LONGOPT,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct mp_trust_opts o = MP_TRUST_DEFAULTS;
    const char *elf = NULL;
    char *pos[1];
    int npos = 0, c, ret, json = 0;
    uint64_t top;

    while ((c = mp_getopt(argc, argv, "e:jh", longopts, pos, 1, &npos)) != -1) {
        switch (c) {
        case 'e':
            elf = optarg;
            break;
        case 'j':
            json = 1;
            break;
        case 'T':
            if (mp_trust_parse_count("--top", optarg, &top) < 0)
                return MP_EXIT_USAGE;
            o.top = top > UINT32_MAX ? UINT32_MAX : (unsigned)top;
            break;
        default:
            if ((ret = mp_trust_or_help(c, optarg, &o, mp_help_info)) != MP_OPTION_TAKEN)
                return ret;
            break;
        }
    }
    if (npos != 1) {
        mp_error(NULL, "info: expected one FILE, got %d (see 'mcuprof help info')", npos);
        return MP_EXIT_USAGE;
    }
    return json ? info_json(pos[0], elf) : info(pos[0], elf, &o);
}

const struct mp_command mp_command_info = {
    .name = "info",
    .summary = "describe a profile image or a gmon.out",
    .run = mp_cmd_info,
    .help = mp_help_info,
};
