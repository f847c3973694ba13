/*
 * The protobuf encoder byte for byte (the expected bytes are the worked
 * examples of the protocol buffers encoding guide, and hand encodings
 * with the derivation beside them), the string table, and the pprof
 * writer on small models read back by a minimal wire-format reader here:
 * every field checked against the model, with and without a sample rate,
 * without functions, at a quarter of a million bins, and on a write error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "diag.h"
#include "formats.h"
#include "model.h"
#include "pb_write.h"
#include "strtab.h"

static int setup(void **state)
{
    (void)state;
    mp_diag_quiet(1);
    mp_diag_reset();
    return 0;
}

static void assert_bytes(const struct mp_pb *b, const uint8_t *want, size_t n)
{
    assert_false(b->failed);
    assert_int_equal(b->len, n);
    assert_memory_equal(b->data, want, n);
}

/* ---- the encoder ---- */

static void test_varints(void **state)
{
    static const struct {
        uint64_t v;
        uint8_t bytes[10];
        size_t n;
    } cases[] = {
        {0, {0x00}, 1},
        {1, {0x01}, 1},
        {127, {0x7f}, 1},                /* the largest one-byte value */
        {128, {0x80, 0x01}, 2},          /* 0000000 1 -> 0x80 0x01 */
        {150, {0x96, 0x01}, 2},          /* the guide's example */
        {300, {0xac, 0x02}, 2},          /* 0101100 0000010 */
        {16384, {0x80, 0x80, 0x01}, 3},  /* 2^14 */
        {UINT64_MAX, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 10},
    };
    struct mp_pb b;
    size_t i;

    (void)state;
    mp_pb_init(&b);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        mp_pb_clear(&b);
        mp_pb_varint(&b, cases[i].v);
        assert_bytes(&b, cases[i].bytes, cases[i].n);
    }
    mp_pb_free(&b);
}

static void test_fields(void **state)
{
    /* field 1 = 150: tag (1 << 3 | 0) = 0x08 */
    static const uint8_t uint150[] = {0x08, 0x96, 0x01};
    /* int64 field 1 = -2: two's complement, ten bytes (not zigzag) */
    static const uint8_t minus2[] = {0x08, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    /* field 2 = "testing": tag (2 << 3 | 2) = 0x12, length 7 */
    static const uint8_t testing[] = {0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g'};
    /* field 3 = a message holding field 1 = 150: tag 0x1a, length 3 */
    static const uint8_t message[] = {0x1a, 0x03, 0x08, 0x96, 0x01};
    /* field 16: the tag 16 << 3 = 128 takes two bytes */
    static const uint8_t field16[] = {0x80, 0x01, 0x05};
    /* field 6 = "": tag 0x32, length 0 (pprof's string_table[0]) */
    static const uint8_t empty[] = {0x32, 0x00};
    struct mp_pb b, sub;

    (void)state;
    mp_pb_init(&b);
    mp_pb_init(&sub);
    mp_pb_uint(&b, 1, 150);
    assert_bytes(&b, uint150, sizeof(uint150));
    mp_pb_clear(&b);
    mp_pb_int(&b, 1, -2);
    assert_bytes(&b, minus2, sizeof(minus2));
    mp_pb_clear(&b);
    mp_pb_string(&b, 2, "testing");
    assert_bytes(&b, testing, sizeof(testing));
    mp_pb_clear(&b);
    mp_pb_uint(&sub, 1, 150);
    mp_pb_message(&b, 3, &sub);
    assert_bytes(&b, message, sizeof(message));
    mp_pb_clear(&b);
    mp_pb_uint(&b, 16, 5);
    assert_bytes(&b, field16, sizeof(field16));
    mp_pb_clear(&b);
    mp_pb_string(&b, 6, "");
    assert_bytes(&b, empty, sizeof(empty));
    mp_pb_free(&b);
    mp_pb_free(&sub);
}

static void test_packed(void **state)
{
    /* The guide's example: field 4 = [3, 270, 86942], packed: tag 0x22,
     * 6 bytes of varints 03, 8e 02, 9e a7 05. */
    static const uint64_t v[] = {3, 270, 86942};
    static const uint8_t want[] = {0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05};
    struct mp_pb b;

    (void)state;
    mp_pb_init(&b);
    mp_pb_packed(&b, 4, v, 0); /* an empty repeated field is absent */
    assert_int_equal(b.len, 0);
    mp_pb_packed(&b, 4, v, 3);
    assert_bytes(&b, want, sizeof(want));
    mp_pb_free(&b);
}

static void test_strtab(void **state)
{
    struct mp_strtab t;
    char name[32];
    int i;

    (void)state;
    mp_strtab_init(&t);
    assert_int_equal(mp_strtab_add(&t, ""), 0);
    assert_int_equal(mp_strtab_add(&t, "main"), 1);
    assert_int_equal(mp_strtab_add(&t, "fib"), 2);
    assert_int_equal(mp_strtab_add(&t, "main"), 1);
    assert_int_equal(mp_strtab_add(&t, ""), 0);
    /* Through several growths of the table, indices stay put. */
    for (i = 0; i < 5000; i++) {
        snprintf(name, sizeof(name), "f%d", i);
        assert_int_equal(mp_strtab_add(&t, name), 3 + i);
    }
    for (i = 0; i < 5000; i += 7) {
        snprintf(name, sizeof(name), "f%d", i);
        assert_int_equal(mp_strtab_add(&t, name), 3 + i);
        assert_string_equal(t.s[3 + i], name);
    }
    assert_int_equal(t.n, 5003);
    assert_string_equal(t.s[2], "fib");
    mp_strtab_free(&t);
}

/* ---- a minimal reader of the wire format, for the writer's tests ---- */

struct rd {
    const uint8_t *p, *end;
};

static uint64_t rd_varint(struct rd *r)
{
    uint64_t v = 0;
    unsigned shift = 0;

    for (;;) {
        assert_true(r->p < r->end && shift < 64);
        v |= (uint64_t)(*r->p & 0x7f) << shift;
        shift += 7;
        if (!(*r->p++ & 0x80))
            return v;
    }
}

/* The next field: 0 at the end. A varint's value in *V; a
 * length-delimited field's contents in *SUB. */
static int rd_field(struct rd *r, unsigned *field, uint64_t *v, struct rd *sub)
{
    uint64_t tag, len;

    if (r->p == r->end)
        return 0;
    tag = rd_varint(r);
    *field = (unsigned)(tag >> 3);
    switch (tag & 7) {
    case 0:
        *v = rd_varint(r);
        return 1;
    case 2:
        len = rd_varint(r);
        assert_true(len <= (uint64_t)(r->end - r->p));
        sub->p = r->p;
        sub->end = r->p + len;
        r->p += len;
        return 1;
    default:
        fail_msg("wire type %u is never written", (unsigned)(tag & 7));
        return 0;
    }
}

/* A repeated varint field, packed or not, appended to OUT. */
static void rd_repeated(uint64_t v, struct rd *sub, int packed, uint64_t *out, size_t *n, size_t max)
{
    if (!packed) {
        assert_true(*n < max);
        out[(*n)++] = v;
        return;
    }
    while (sub->p < sub->end) {
        assert_true(*n < max);
        out[(*n)++] = rd_varint(sub);
    }
}

#define MAXS 16

struct sample {
    uint64_t loc[8], val[8];
    size_t nloc, nval;
    uint64_t label_key[2], label_str[2];
    size_t nlabels;
};

struct location {
    uint64_t id, mapping, address, function, line;
    int has_line;
};

struct profile {
    uint8_t *data; /* the inflated message */
    size_t len;
    const char **str;
    size_t nstr;
    uint64_t type[6][2];
    size_t ntypes;
    struct sample *samples;
    size_t nsamples;
    struct location *locs;
    size_t nlocs;
    uint64_t map[10]; /* mapping fields by number */
    uint64_t fn_name[8], fn_file[8], fn_line[8];
    size_t nfns;
    uint64_t comment[32];
    size_t ncomments;
    uint64_t period_type[2], period, duration, default_type;
    int has_period_type, has_period;
    int first_string_seen;
};

static const char *S(const struct profile *p, uint64_t i)
{
    assert_true(i < p->nstr);
    return p->str[i];
}

static void inflate_file(FILE *f, struct profile *p)
{
    long size;
    uint8_t *gz;
    z_stream z;
    size_t cap = 1 << 16;
    int ret;

    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    size = ftell(f);
    assert_true(size > 18); /* a gzip header and trailer at least */
    rewind(f);
    gz = malloc((size_t)size);
    assert_non_null(gz);
    assert_int_equal(fread(gz, 1, (size_t)size, f), (size_t)size);
    assert_int_equal(gz[0], 0x1f); /* gzip magic */
    assert_int_equal(gz[1], 0x8b);
    memset(&z, 0, sizeof(z));
    assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
    z.next_in = gz;
    z.avail_in = (uInt)size;
    p->data = malloc(cap);
    p->len = 0;
    do {
        if (p->len == cap) {
            cap *= 2;
            p->data = realloc(p->data, cap);
            assert_non_null(p->data);
        }
        z.next_out = p->data + p->len;
        z.avail_out = (uInt)(cap - p->len);
        ret = inflate(&z, Z_NO_FLUSH);
        assert_true(ret == Z_OK || ret == Z_STREAM_END);
        p->len = cap - z.avail_out;
    } while (ret != Z_STREAM_END);
    assert_int_equal(z.avail_in, 0); /* nothing after the stream */
    inflateEnd(&z);
    free(gz);
}

static void parse_sample(struct rd *r, struct sample *s)
{
    struct rd sub, lab;
    unsigned field, lf;
    uint64_t v, lv;

    memset(s, 0, sizeof(*s));
    while (rd_field(r, &field, &v, &sub)) {
        if (field == 1)
            rd_repeated(v, &sub, 1, s->loc, &s->nloc, 8);
        else if (field == 2)
            rd_repeated(v, &sub, 1, s->val, &s->nval, 8);
        else if (field == 3) {
            assert_true(s->nlabels < 2);
            while (rd_field(&sub, &lf, &lv, &lab)) {
                if (lf == 1)
                    s->label_key[s->nlabels] = lv;
                else if (lf == 2)
                    s->label_str[s->nlabels] = lv;
            }
            s->nlabels++;
        } else
            fail_msg("sample field %u", field);
    }
}

static void parse_location(struct rd *r, struct location *l)
{
    struct rd sub, ln;
    unsigned field, lf;
    uint64_t v, lv;

    memset(l, 0, sizeof(*l));
    while (rd_field(r, &field, &v, &sub)) {
        if (field == 1)
            l->id = v;
        else if (field == 2)
            l->mapping = v;
        else if (field == 3)
            l->address = v;
        else if (field == 4) {
            assert_false(l->has_line); /* one Line per location */
            l->has_line = 1;
            while (rd_field(&sub, &lf, &lv, &ln)) {
                if (lf == 1)
                    l->function = lv;
                else if (lf == 2)
                    l->line = lv;
            }
        } else
            fail_msg("location field %u", field);
    }
}

static void parse_value_type(struct rd *r, uint64_t vt[2])
{
    struct rd sub;
    unsigned field;
    uint64_t v;

    while (rd_field(r, &field, &v, &sub))
        vt[field == 1 ? 0 : 1] = v;
}

/* Read back what the writer made of M. */
static void write_and_parse(const struct mp_model *m, struct profile *p)
{
    FILE *f = tmpfile();
    struct rd r, sub;
    unsigned field;
    uint64_t v;
    size_t cap_s = 64, cap_l = 64, cap_str = 64;

    assert_non_null(f);
    memset(p, 0, sizeof(*p));
    assert_int_equal(mp_format_pprof.write(m, f), 0);
    assert_int_equal(fflush(f), 0);
    inflate_file(f, p);
    fclose(f);
    p->samples = malloc(cap_s * sizeof(*p->samples));
    p->locs = malloc(cap_l * sizeof(*p->locs));
    p->str = malloc(cap_str * sizeof(*p->str));
    assert_true(p->samples && p->locs && p->str);
    r.p = p->data;
    r.end = p->data + p->len;
    while (rd_field(&r, &field, &v, &sub)) {
        switch (field) {
        case 1:
            assert_true(p->ntypes < 6);
            parse_value_type(&sub, p->type[p->ntypes++]);
            break;
        case 2:
            if (p->nsamples == cap_s)
                assert_non_null(p->samples = realloc(p->samples, (cap_s *= 2) * sizeof(*p->samples)));
            parse_sample(&sub, &p->samples[p->nsamples++]);
            break;
        case 3: {
            struct rd f2;
            unsigned mf;
            uint64_t mv;

            while (rd_field(&sub, &mf, &mv, &f2)) {
                assert_true(mf < 10);
                p->map[mf] = mv;
            }
            break;
        }
        case 4:
            if (p->nlocs == cap_l)
                assert_non_null(p->locs = realloc(p->locs, (cap_l *= 2) * sizeof(*p->locs)));
            parse_location(&sub, &p->locs[p->nlocs++]);
            break;
        case 5: {
            struct rd f2;
            unsigned ff;
            uint64_t fv, id = 0;
            uint64_t name = 0, file = 0, line = 0;

            while (rd_field(&sub, &ff, &fv, &f2)) {
                if (ff == 1)
                    id = fv;
                else if (ff == 2)
                    name = fv;
                else if (ff == 4)
                    file = fv;
                else if (ff == 5)
                    line = fv;
            }
            assert_int_equal(id, p->nfns + 1);
            assert_true(p->nfns < 8);
            p->fn_name[p->nfns] = name;
            p->fn_file[p->nfns] = file;
            p->fn_line[p->nfns++] = line;
            break;
        }
        case 6: {
            char *s = malloc((size_t)(sub.end - sub.p) + 1);

            assert_non_null(s);
            memcpy(s, sub.p, (size_t)(sub.end - sub.p));
            s[sub.end - sub.p] = '\0';
            /* pprof rejects a profile whose first string is not "" */
            if (!p->first_string_seen)
                assert_string_equal(s, "");
            p->first_string_seen = 1;
            if (p->nstr == cap_str)
                assert_non_null(p->str = realloc(p->str, (cap_str *= 2) * sizeof(*p->str)));
            p->str[p->nstr++] = s;
            break;
        }
        case 10:
            p->duration = v;
            break;
        case 11:
            p->has_period_type = 1;
            parse_value_type(&sub, p->period_type);
            break;
        case 12:
            p->has_period = 1;
            p->period = v;
            break;
        case 13:
            rd_repeated(v, &sub, 1, p->comment, &p->ncomments, 32);
            break;
        case 14:
            p->default_type = v;
            break;
        default:
            fail_msg("profile field %u", field);
        }
    }
}

static void free_profile(struct profile *p)
{
    size_t i;

    for (i = 0; i < p->nstr; i++)
        free((char *)p->str[i]);
    free(p->str);
    free(p->samples);
    free(p->locs);
    free(p->data);
}

static const struct location *loc_by_id(const struct profile *p, uint64_t id)
{
    size_t i;

    for (i = 0; i < p->nlocs; i++)
        if (p->locs[i].id == id)
            return &p->locs[i];
    fail_msg("no location %llu", (unsigned long long)id);
    return NULL;
}

/* ---- the writer ---- */

/* A range of 16 bins of 16 bytes at 0x1000, two functions (alpha at
 * 0x1000..0x1040, beta after it), three arcs: beta -> alpha 9 times, an
 * interrupt entry (call site 0) -> beta 4 times, and alpha -> beta with a
 * saturated count. */
static void small_model(struct mp_model *m, uint32_t rate, int with_funcs)
{
    struct mp_model_range *r;
    struct mp_model_arc *a;

    mp_model_init(m, "fw.img", MP_MODEL_IMAGE);
    m->machine = 40;
    m->ptr_size = 4;
    m->sample_rate_hz = rate;
    m->bin_shift = 4;
    m->build_id[0] = 0xde;
    m->build_id[1] = 0xad;
    m->build_id_len = 2;
    r = m->ranges = mp_model_alloc(m, sizeof(*r));
    m->nranges = 1;
    r->low = 0x1000;
    r->high = 0x1100;
    r->nbins = 16;
    r->bins = mp_model_alloc(m, 16 * sizeof(*r->bins));
    r->bins[3] = 5;  /* 0x1030, alpha */
    r->bins[4] = 7;  /* 0x1040, beta */
    r->bins[10] = 2; /* 0x10a0, beta */
    r->samples = 14;
    m->c.binned = 14;
    m->c.samples_taken = 15;
    m->c.lost[MP_LOST_SAMPLES_OUT_OF_RANGE] = 1;
    a = m->arcs = mp_model_alloc(m, 3 * sizeof(*a));
    m->narcs = 3;
    a[0] = (struct mp_model_arc){0x1046, 0x1000, 9, 1, 0, 0};
    a[1] = (struct mp_model_arc){0, 0x1040, 4, -1, 1, 0};
    a[2] = (struct mp_model_arc){0x1010, 0x1040, UINT32_MAX, 0, 1, 1};
    m->c.total_calls = 13 + (uint64_t)UINT32_MAX;
    m->c.outside_calls = 4;
    m->c.saturated_arcs = 1;
    if (with_funcs) {
        struct mp_model_func *f = m->funcs = mp_model_alloc(m, 2 * sizeof(*f));

        m->nfuncs = 2;
        m->elf_path = "/build/fw.elf";
        f[0].name = "alpha";
        f[0].addr = 0x1000;
        f[0].end = f[0].size = 0x1040;
        f[1].name = "beta";
        f[1].addr = 0x1040;
        f[1].end = 0x1100;
        f[1].file = "beta.c";
        f[1].line = 12;
    }
}

static int has_comment(const struct profile *p, const char *text)
{
    size_t i;

    for (i = 0; i < p->ncomments; i++)
        if (strstr(S(p, p->comment[i]), text))
            return 1;
    return 0;
}

static void test_profile(void **state)
{
    static const uint64_t addr[3] = {0x1030, 0x1040, 0x10a0}, count[3] = {5, 7, 2}, func[3] = {1, 2, 2};
    struct mp_model m;
    struct profile p;
    size_t i;

    (void)state;
    small_model(&m, 10000, 1);
    write_and_parse(&m, &p);

    assert_int_equal(p.ntypes, 3);
    assert_string_equal(S(&p, p.type[0][0]), "samples");
    assert_string_equal(S(&p, p.type[0][1]), "count");
    assert_string_equal(S(&p, p.type[1][0]), "cpu");
    assert_string_equal(S(&p, p.type[1][1]), "nanoseconds");
    assert_string_equal(S(&p, p.type[2][0]), "calls");
    assert_string_equal(S(&p, p.type[2][1]), "count");
    assert_string_equal(S(&p, p.default_type), "samples");
    assert_true(p.has_period_type && p.has_period);
    assert_string_equal(S(&p, p.period_type[0]), "cpu");
    assert_int_equal(p.period, 100000);      /* 1e9 / 10 kHz */
    assert_int_equal(p.duration, 1500000);   /* 15 samples taken */

    /* One sample per non-zero bin, at the bin's first address. */
    assert_int_equal(p.nsamples, 6);
    for (i = 0; i < 3; i++) {
        const struct sample *s = &p.samples[i];
        const struct location *l;

        assert_int_equal(s->nloc, 1);
        assert_int_equal(s->nval, 3);
        assert_int_equal(s->val[0], count[i]);
        assert_int_equal(s->val[1], count[i] * 100000);
        assert_int_equal(s->val[2], 0);
        l = loc_by_id(&p, s->loc[0]);
        assert_int_equal(l->address, addr[i]);
        assert_int_equal(l->mapping, 1);
        assert_true(l->has_line);
        assert_int_equal(l->function, func[i]);
    }
    /* Arcs: [callee entry, call site], leaf first. */
    assert_int_equal(p.samples[3].nloc, 2);
    assert_int_equal(loc_by_id(&p, p.samples[3].loc[0])->address, 0x1000);
    assert_int_equal(loc_by_id(&p, p.samples[3].loc[1])->address, 0x1046);
    assert_int_equal(loc_by_id(&p, p.samples[3].loc[1])->function, 2);
    assert_int_equal(p.samples[3].val[0], 0);
    assert_int_equal(p.samples[3].val[1], 0);
    assert_int_equal(p.samples[3].val[2], 9);
    assert_int_equal(p.samples[3].nlabels, 0);
    /* From outside code: one frame, labelled. */
    assert_int_equal(p.samples[4].nloc, 1);
    assert_int_equal(loc_by_id(&p, p.samples[4].loc[0])->address, 0x1040);
    assert_int_equal(p.samples[4].val[2], 4);
    assert_int_equal(p.samples[4].nlabels, 1);
    assert_string_equal(S(&p, p.samples[4].label_key[0]), "caller");
    assert_string_equal(S(&p, p.samples[4].label_str[0]), "<spontaneous>");
    /* Saturated: the count as recorded, labelled a lower bound. */
    assert_int_equal(p.samples[5].val[2], UINT32_MAX);
    assert_int_equal(p.samples[5].nlabels, 1);
    assert_string_equal(S(&p, p.samples[5].label_key[0]), "count");
    assert_string_equal(S(&p, p.samples[5].label_str[0]), "saturated");

    /* Functions, mapping, comments. */
    assert_int_equal(p.nfns, 2);
    assert_string_equal(S(&p, p.fn_name[0]), "alpha");
    assert_string_equal(S(&p, p.fn_file[0]), ""); /* unknown */
    assert_string_equal(S(&p, p.fn_name[1]), "beta");
    assert_string_equal(S(&p, p.fn_file[1]), "beta.c");
    assert_int_equal(p.fn_line[1], 12);
    assert_int_equal(p.map[1], 1);           /* id */
    assert_int_equal(p.map[2], 0);           /* memory_start: link addresses */
    assert_int_equal(p.map[3], UINT64_MAX);  /* memory_limit */
    assert_string_equal(S(&p, p.map[5]), "fw.elf");
    assert_string_equal(S(&p, p.map[6]), "dead");
    assert_int_equal(p.map[7], 1);           /* has_functions */
    assert_int_equal(p.map[8], 1);           /* has_filenames */
    assert_int_equal(p.map[9], 0);           /* has_line_numbers */
    assert_true(has_comment(&p, "samples_taken 15,"));
    assert_true(has_comment(&p, "lost_samples_out_of_range 1,"));
    assert_true(has_comment(&p, "saturated_arcs 1 "));
    assert_true(has_comment(&p, "calls_from_outside_code 4 "));
    /* no path table: the comment and the one note say what that leaves out */
    assert_true(has_comment(&p, "paths: none, the runtime was built without PATHS: each time sample is one frame"));
    assert_non_null(strstr(mp_last_warning(), "no call paths: the runtime was built without PATHS"));
    assert_int_equal(mp_warning_count(), 0);
    free_profile(&p);
    mp_model_free(&m);
}

/* The sampler's timing as comments; the missed periods charged to the
 * bins make the duration one of periods. */
static void test_timing_comments(void **state)
{
    struct mp_model m;
    struct profile p;

    (void)state;
    small_model(&m, 10000, 1);
    m.c.timing_flags = MCUPROF_TIMING_CHARGED | MCUPROF_TIMING_BLOCKERS;
    m.c.missed_periods = 3;
    m.c.missed_source = MCUPROF_MISSED_CYCCNT;
    m.has_late = m.has_blockers = 1;
    m.late = mp_model_alloc(&m, sizeof(*m.late));
    m.late[0] = (struct mp_model_late){0x1044, 1, 3};
    m.nlate = 1;
    m.blockers = mp_model_alloc(&m, sizeof(*m.blockers));
    m.blockers[0] = (struct mp_model_blocker){0x10000015u, 0, 0, MCUPROF_BLOCKER_SEEN_BLOCKING};
    m.nblockers = 1;
    m.ranges[0].bins[4] += 3;
    m.ranges[0].samples += 3;
    m.c.binned += 3;
    write_and_parse(&m, &p);
    assert_int_equal(p.duration, 1800000); /* 15 samples and 3 periods charged */
    assert_true(has_comment(&p, "timing: timing_flags 0x0006 (charged, blockers), deferred_samples 0, late places 1,"
                                " late_lost 0, held off 0 samples 0 periods, blockers 1, blockers_lost 0 (the"
                                " missed periods charged are in the samples, where interrupts came back on)"));
    assert_true(has_comment(&p, "timing: interrupts masked: 16.7 % of the time (3 periods of 18), charged where they"
                                " came back on: beta 16.7 %"));
    assert_true(has_comment(&p, "timing: IRQ 5 (exception 21) is enabled at priority 0x00"));
    free_profile(&p);
    mp_model_free(&m);
}

static void test_rate_unknown(void **state)
{
    struct mp_model m;
    struct profile p;

    (void)state;
    small_model(&m, 0, 1);
    write_and_parse(&m, &p);
    assert_int_equal(p.ntypes, 2);
    assert_string_equal(S(&p, p.type[0][0]), "samples");
    assert_string_equal(S(&p, p.type[1][0]), "calls");
    assert_false(p.has_period_type);
    assert_false(p.has_period);
    assert_int_equal(p.duration, 0);
    assert_int_equal(p.samples[0].nval, 2);
    assert_int_equal(p.samples[0].val[0], 5);
    assert_int_equal(p.samples[3].val[1], 9);
    assert_true(has_comment(&p, "sample_rate_hz unknown"));
    free_profile(&p);
    mp_model_free(&m);
}

/* A rate that does not divide a second: values rounded to the nearest
 * nanosecond from the exact product, not from a rounded period. */
static void test_rate_odd(void **state)
{
    struct mp_model m;
    struct profile p;

    (void)state;
    small_model(&m, 3000, 1);
    write_and_parse(&m, &p);
    assert_int_equal(p.period, 333333);
    assert_int_equal(p.samples[0].val[1], 1666667);  /* 5 x 333333.33 */
    assert_int_equal(p.samples[1].val[1], 2333333);  /* 7 x 333333.33 */
    assert_int_equal(p.duration, 5000000);           /* 15 samples */
    free_profile(&p);
    mp_model_free(&m);
}

static void test_no_functions(void **state)
{
    struct mp_model m;
    struct profile p;
    size_t i;

    (void)state;
    small_model(&m, 10000, 0);
    write_and_parse(&m, &p);
    assert_int_equal(p.nsamples, 6);
    assert_int_equal(p.nfns, 0);
    for (i = 0; i < p.nlocs; i++)
        assert_false(p.locs[i].has_line);
    assert_int_equal(p.map[5], 0); /* no file name */
    assert_int_equal(p.map[7], 0); /* pprof may symbolize it */
    free_profile(&p);
    mp_model_free(&m);
}

/* A quarter of a million bins, every one with a sample: streamed in
 * chunks, all there. */
static void test_many_bins(void **state)
{
    const uint64_t n = 1u << 18;
    struct mp_model m;
    struct profile p;
    uint64_t i, sum = 0, want = 0;

    (void)state;
    mp_model_init(&m, "big.img", MP_MODEL_IMAGE);
    m.sample_rate_hz = 1000;
    m.nranges = 1;
    m.ranges = mp_model_alloc(&m, sizeof(*m.ranges));
    m.ranges->low = 0x08000000;
    m.ranges->high = 0x08000000 + 2 * n;
    m.ranges->nbins = n;
    m.ranges->bins = mp_model_alloc(&m, n * sizeof(uint64_t));
    for (i = 0; i < n; i++)
        want += m.ranges->bins[i] = 1 + i % 3;
    write_and_parse(&m, &p);
    assert_int_equal(p.nsamples, n);
    assert_int_equal(p.nlocs, n);
    for (i = 0; i < n; i++) {
        sum += p.samples[i].val[0];
        assert_int_equal(p.samples[i].val[1], p.samples[i].val[0] * 1000000);
    }
    assert_int_equal(sum, want);
    assert_int_equal(p.locs[n - 1].address, 0x08000000 + 2 * (n - 1));
    free_profile(&p);
    mp_model_free(&m);
}

/* Call paths: two more sample types (the default), one sample per path
 * with its whole stack leaf first, partial paths labelled; the bins'
 * and arcs' samples keep their values and get 0 for the path types. */
static void test_paths(void **state)
{
    static const uint64_t nested[2] = {0x1048, 0x1008}, inner[1] = {0x1008}, gap[3] = {0x1048, 0, 0x1008};
    struct mp_model m;
    struct profile p;
    size_t i;

    (void)state;
    small_model(&m, 10000, 1);
    m.has_paths = 1;
    m.paths_lost = 3;
    m.paths_truncated = 2;
    m.paths = mp_model_alloc(&m, 4 * sizeof(*m.paths));
    m.npaths = 4;
    /* beta -> alpha in task "sensor", under IRQ 3 (exception 19) */
    m.paths[0] = (struct mp_model_path){nested, 2, 0, 0, MCUPROF_CTX_ARM_EXCEPTION | 19u, 6};
    m.paths[1] = (struct mp_model_path){inner, 1, MCUPROF_PATH_TRUNCATED, -1, MCUPROF_PATH_NO_CONTEXT, 2};
    m.paths[2] = (struct mp_model_path){NULL, 0, 0, -1, MCUPROF_PATH_NO_CONTEXT, 1}; /* no function live */
    /* beta -> [...] -> alpha */
    m.paths[3] = (struct mp_model_path){gap, 3, MCUPROF_PATH_GAP, -1, MCUPROF_PATH_NO_CONTEXT, 4};
    m.has_tasks = 1;
    m.ntasks = 1;
    m.tasks = mp_model_alloc(&m, sizeof(*m.tasks));
    m.tasks[0] = (struct mp_model_task){0x20001000u, 6, "sensor", 0};
    write_and_parse(&m, &p);

    assert_int_equal(p.ntypes, 5);
    assert_string_equal(S(&p, p.type[3][0]), "paths");
    assert_string_equal(S(&p, p.type[3][1]), "count");
    assert_string_equal(S(&p, p.type[4][0]), "paths_cpu");
    assert_string_equal(S(&p, p.type[4][1]), "nanoseconds");
    assert_string_equal(S(&p, p.default_type), "paths");
    assert_int_equal(p.nsamples, 10);
    for (i = 0; i < 6; i++) {
        assert_int_equal(p.samples[i].nval, 5);
        assert_int_equal(p.samples[i].val[3], 0);
        assert_int_equal(p.samples[i].val[4], 0);
    }
    assert_int_equal(p.samples[0].val[0], 5); /* the bins as before */
    assert_int_equal(p.samples[3].val[2], 9); /* the arcs as before */

    assert_int_equal(p.samples[6].nloc, 2);
    assert_int_equal(loc_by_id(&p, p.samples[6].loc[0])->address, 0x1008); /* leaf first */
    assert_int_equal(loc_by_id(&p, p.samples[6].loc[0])->function, 1);
    assert_int_equal(loc_by_id(&p, p.samples[6].loc[1])->address, 0x1048);
    assert_int_equal(loc_by_id(&p, p.samples[6].loc[1])->function, 2);
    assert_int_equal(p.samples[6].val[0], 0);
    assert_int_equal(p.samples[6].val[2], 0);
    assert_int_equal(p.samples[6].val[3], 6);
    assert_int_equal(p.samples[6].val[4], 600000);
    assert_int_equal(p.samples[6].nlabels, 2); /* where it ran, as strings for -tagfocus */
    assert_string_equal(S(&p, p.samples[6].label_key[0]), "task");
    assert_string_equal(S(&p, p.samples[6].label_str[0]), "sensor");
    assert_string_equal(S(&p, p.samples[6].label_key[1]), "context");
    assert_string_equal(S(&p, p.samples[6].label_str[1]), "IRQ 3");
    assert_int_equal(p.samples[7].nloc, 1);
    assert_int_equal(p.samples[7].val[3], 2);
    assert_int_equal(p.samples[7].nlabels, 1);
    assert_string_equal(S(&p, p.samples[7].label_key[0]), "path");
    assert_string_equal(S(&p, p.samples[7].label_str[0]), "truncated");
    assert_int_equal(p.samples[8].nloc, 0);
    assert_string_equal(S(&p, p.samples[8].label_str[0]), "no profiled function");
    /* the gap: a location in the Function [...], after the model's two */
    assert_int_equal(p.samples[9].nloc, 3);
    assert_int_equal(loc_by_id(&p, p.samples[9].loc[0])->function, 1);
    assert_int_equal(loc_by_id(&p, p.samples[9].loc[1])->function, 3);
    assert_int_equal(loc_by_id(&p, p.samples[9].loc[2])->function, 2);
    assert_int_equal(p.nfns, 3);
    assert_string_equal(S(&p, p.fn_name[2]), "[...]");
    assert_int_equal(p.samples[9].val[3], 4);
    assert_int_equal(p.samples[9].nlabels, 1);
    assert_string_equal(S(&p, p.samples[9].label_str[0]), "gap");
    assert_true(has_comment(&p, "paths: 4 call paths, paths_lost 3 "));
    assert_true(has_comment(&p, "paths_truncated 2 "));
    assert_false(has_comment(&p, "paths: none"));
    assert_null(strstr(mp_last_warning(), "no call paths"));
    free_profile(&p);
    mp_model_free(&m);
}

static void test_write_error(void **state)
{
    struct mp_model m;
    FILE *f = fopen("/dev/full", "w");

    (void)state;
    if (!f)
        skip();
    setvbuf(f, NULL, _IONBF, 0); /* every write reaches the device */
    small_model(&m, 10000, 1);
    assert_int_equal(mp_format_pprof.write(&m, f), -1);
    fclose(f);
    mp_model_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_varints, setup),
        cmocka_unit_test_setup(test_fields, setup),
        cmocka_unit_test_setup(test_packed, setup),
        cmocka_unit_test_setup(test_strtab, setup),
        cmocka_unit_test_setup(test_profile, setup),
        cmocka_unit_test_setup(test_timing_comments, setup),
        cmocka_unit_test_setup(test_rate_unknown, setup),
        cmocka_unit_test_setup(test_rate_odd, setup),
        cmocka_unit_test_setup(test_no_functions, setup),
        cmocka_unit_test_setup(test_many_bins, setup),
        cmocka_unit_test_setup(test_paths, setup),
        cmocka_unit_test_setup(test_write_error, setup),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
