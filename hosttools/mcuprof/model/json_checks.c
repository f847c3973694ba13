/*
 * json_checks.c - the JSON reader's checks across the parts of the
 * document, once every part is read (json_read.h): the version, the sums
 * the counters state against the ranges, arcs, paths and the samples held
 * off, the header's arc table and ranges against the document's, and the
 * members that come with the ELF's functions, all or none.
 */
#include <inttypes.h>

#include "json_read.h"
#include "model_json.h"
#include "profile_checks.h"

int jr_check_version(struct rd *r)
{
    if (!(r->seen & BIT(TOP_SCHEMA)))
        return mp_jp_fail(&r->p, 0, "the document has no member 'schema': not a profile of mcuprof");
    if (!(r->seen & BIT(TOP_VERSION)))
        return mp_jp_fail(&r->p, 0, "the document has no member 'version'");
    if (r->version > MP_JSON_VERSION)
        return mp_jp_fail(&r->p, r->top_off[TOP_VERSION],
                          "version %" PRIu64 ": written by a newer mcuprof, this one reads version %u: update mcuprof",
                          r->version, MP_JSON_VERSION);
    if (r->version == 0)
        return mp_jp_fail(&r->p, r->top_off[TOP_VERSION], "version 0 is no version of the document (1 is the first)");
    return 0;
}

/* What the counters state, against what the ranges and arcs hold. */
int jr_check_sums(struct rd *r)
{
    const struct mp_model *m = r->m;
    uint64_t binned = 0, calls = 0, sum;
    uint64_t *per_func = r->calls.p;
    const size_t *foff = r->func_off.p;
    size_t i;

    for (i = 0; i < m->nranges; i++) {
        if (m->ranges[i].samples > UINT64_MAX - binned)
            return mp_jp_fail(&r->p, r->top_off[TOP_RANGES], "ranges: the samples add up to more than 2^64");
        binned += m->ranges[i].samples;
    }
    if (binned != m->c.binned)
        return mp_jp_fail(&r->p, r->top_off[TOP_COUNTERS], "counters.binned %" PRIu64 ", but the ranges hold %" PRIu64,
                          m->c.binned, binned);
    for (i = 0; i < m->narcs; i++) {
        if (m->arcs[i].count > UINT64_MAX - calls)
            return mp_jp_fail(&r->p, r->top_off[TOP_ARCS], "arcs: the counts add up to more than 2^64");
        calls += m->arcs[i].count;
        if (m->arcs[i].callee_fn >= 0)
            per_func[m->arcs[i].callee_fn] += m->arcs[i].count;
    }
    for (i = 0, sum = m->paths_lost; i < m->npaths; i++) {
        if (m->paths[i].samples > UINT64_MAX - sum)
            return mp_jp_fail(&r->p, r->top_off[TOP_PATHS], "paths: the samples and lost add up to more than 2^64");
        sum += m->paths[i].samples;
    }
    if (mp_held_exceeds(m->held.samples, m->held.periods, m->c.samples_taken, m->c.missed_periods, UINT64_MAX))
        return mp_jp_fail(&r->p, r->top_off[TOP_HELD],
                          "held: %" PRIu64 " samples and %" PRIu64 " periods, but counters.samples_taken is %" PRIu64
                          " and missed_periods %" PRIu64 ": the samples held off are samples taken, their periods"
                          " missed periods",
                          m->held.samples, m->held.periods, m->c.samples_taken, m->c.missed_periods);
    /* grouped clones: the calls into a function's own pieces are no arcs */
    if (calls > UINT64_MAX - m->internal_calls || calls + m->internal_calls != m->c.total_calls)
        return mp_jp_fail(&r->p, r->top_off[TOP_COUNTERS],
                          "counters.total_calls %" PRIu64 ", but the arcs add up to %" PRIu64
                          " and clones.internal_calls is %" PRIu64,
                          m->c.total_calls, calls, m->internal_calls);
    for (i = 0; i < m->nfuncs; i++)
        if (per_func[i] != m->funcs[i].calls)
            return mp_jp_fail(&r->p, foff[i], "functions[%zu].calls %" PRIu64 ", but its arcs add up to %" PRIu64, i,
                              m->funcs[i].calls, per_func[i]);
    return 0;
}

/* The header's arc table and ranges are the document's. */
int jr_check_header(struct rd *r)
{
    const struct mp_model *m = r->m;

    if (!m->has_header)
        return 0;
    if (m->header.arcs_used != m->narcs)
        return mp_jp_fail(&r->p, r->top_off[TOP_HEADER], "header.arcs_used %" PRIu32 ", but the document has %zu arcs",
                          m->header.arcs_used, m->narcs);
    if (r->nhist != m->nranges)
        return mp_jp_fail(&r->p, r->top_off[TOP_HEADER],
                          "header.hist_offsets lists %zu offsets, but the document has %zu ranges", r->nhist,
                          m->nranges);
    return 0;
}

/* The members that come with the ELF's functions, all or none. */
int jr_check_elf_members(struct rd *r)
{
    const uint32_t with_funcs = BIT(TOP_FUNCTIONS) | BIT(TOP_ATTRIBUTION) | BIT(TOP_LINES_MISSING);
    int i;

    if (r->m->elf_path && !(r->seen & BIT(TOP_FUNCTIONS)))
        return mp_jp_fail(&r->p, r->top_off[TOP_ELF], "elf names an ELF, but the document has no member 'functions'");
    if (!r->m->elf_path && (r->seen & BIT(TOP_FUNCTIONS)))
        return mp_jp_fail(&r->p, r->top_off[TOP_ELF], "elf is null, but the document has functions");
    if ((r->seen & BIT(TOP_FUNCTIONS)) && (r->seen & with_funcs) != with_funcs)
        for (i = 0; i < TOP_COUNT; i++)
            if ((with_funcs & BIT(i)) && !(r->seen & BIT(i)))
                return mp_jp_fail(&r->p, r->top_off[TOP_FUNCTIONS], "the document has functions but no member '%s'",
                                  jr_top_keys[i]);
    if (!(r->seen & BIT(TOP_FUNCTIONS)) && (r->seen & (BIT(TOP_LINES) | BIT(TOP_LINE_TABLE))))
        return mp_jp_fail(&r->p, 0, "the document has source lines but no functions");
    return 0;
}
