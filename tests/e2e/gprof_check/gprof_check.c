/*
 * gprof_check: compare what GNU gprof (binutils 2.40) reports for a profile
 * with what the profiled workload is known to have done.
 *
 *   gprof_check --flat FLAT.txt --graph GRAPH.txt --expect EXPECT.txt
 *
 * FLAT.txt is `gprof -b -p ELF gmon.out`, GRAPH.txt is `gprof -b -q ELF
 * gmon.out`.  The end-to-end tests judge the real gprof text rather than
 * gmon.out itself: what users read is what must be right, and a gmon.out
 * that gprof silently misreads must not pass.
 *
 * Expectation lines (an optional leading `EXPECT ` is ignored, so lines
 * grepped from a UART log can be passed unchanged; `#` starts a comment):
 *   arc CALLER CALLEE COUNT   exactly COUNT calls CALLER -> CALLEE
 *   arc <spontaneous> F [0]   gprof lists F with no recorded caller
 *   calls FUNC COUNT          FUNC entered COUNT times, recursion included
 *   noarc CALLER CALLEE       no arc CALLER -> CALLEE
 *   share FUNC PERCENT TOL    flat `% time` of FUNC within TOL points
 *
 * Exit status: 0 all expectations hold, 1 some do not, 2 usage error or an
 * input that does not look like what gprof 2.40 prints.  The parsers are
 * strict on purpose: a format surprise must stop the test, not make every
 * lookup come back empty and every `noarc` pass.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Callers listed in a failure message before eliding the rest. */
#define MAX_LISTED_CALLERS 8

static void fatal(const char *file, long line, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "gprof_check: error: ");
    if (file != NULL && line > 0)
        fprintf(stderr, "%s:%ld: ", file, line);
    else if (file != NULL)
        fprintf(stderr, "%s: ", file);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);

    if (q == NULL)
        fatal(NULL, 0, "out of memory");
    return q;
}

static char *xstrndup(const char *s, size_t n)
{
    char *d = xrealloc(NULL, n + 1);

    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* ------------------------------------------------------------------ */
/* Line input                                                          */

struct lines {
    const char *path;
    char **text;
    size_t count;
};

/* Whole file as lines without their terminators; a trailing CR is dropped
 * so that logs captured with CRLF line ends read the same. */
static struct lines read_lines(const char *path)
{
    struct lines l = { path, NULL, 0 };
    size_t cap = 0, len = 0, bufcap = 256;
    char *buf = xrealloc(NULL, bufcap);
    FILE *f = fopen(path, "r");
    int c;

    if (f == NULL)
        fatal(path, 0, "cannot open: %s", strerror(errno));
    for (;;) {
        c = fgetc(f);
        if (c == EOF && len == 0)
            break;
        if (c == EOF || c == '\n') {
            if (len > 0 && buf[len - 1] == '\r')
                len--;
            if (l.count == cap) {
                cap = cap ? 2 * cap : 64;
                l.text = xrealloc(l.text, cap * sizeof *l.text);
            }
            l.text[l.count++] = xstrndup(buf, len);
            len = 0;
            if (c == EOF)
                break;
            continue;
        }
        if (c == '\0')
            fatal(path, (long)l.count + 1, "NUL byte: not a text file");
        if (len + 1 >= bufcap) {
            bufcap *= 2;
            buf = xrealloc(buf, bufcap);
        }
        buf[len++] = (char)c;
    }
    if (ferror(f))
        fatal(path, 0, "read error");
    fclose(f);
    free(buf);
    return l;
}

static void free_lines(struct lines *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->text[i]);
    free(l->text);
}

/* ------------------------------------------------------------------ */
/* Tokens                                                              */

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Next whitespace-delimited token at *p; returns its length (0 at end). */
static size_t next_token(const char **p, const char **tok)
{
    const char *s = skip_ws(*p), *e = s;

    while (*e != '\0' && *e != ' ' && *e != '\t')
        e++;
    *tok = s;
    *p = e;
    return (size_t)(e - s);
}

static bool all_digits(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return true;
}

/* Unsigned decimal, digits only, no overflow. */
static bool parse_count(const char *s, size_t n, unsigned long long *out)
{
    unsigned long long v = 0;

    if (!all_digits(s, n))
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (~0ULL - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* gprof prints every time and percentage with a decimal point ("%7.2f",
 * "%5.1f"), or nan when the profile has no histogram; requiring the point
 * keeps a call count from ever being mistaken for a time. */
static bool parse_fixed(const char *s, size_t n, double *out)
{
    char tmp[64], *end;
    bool nan_like;

    if (n == 0 || n >= sizeof tmp)
        return false;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    nan_like = strstr(tmp, "nan") != NULL || strstr(tmp, "inf") != NULL;
    if (!nan_like && strchr(tmp, '.') == NULL)
        return false;
    if (!nan_like && !isdigit((unsigned char)tmp[0]) && tmp[0] != '-')
        return false;
    errno = 0;
    *out = strtod(tmp, &end);
    return *end == '\0' && errno == 0;
}

static size_t trimmed_len(const char *s)
{
    size_t n = strlen(s);

    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return n;
}

/* ------------------------------------------------------------------ */
/* Call graph model                                                    */

struct func {
    long index;          /* gprof's [N] */
    char *name;
    long cycle;          /* N of "<cycle N>", 0 if none */
    bool has_entry;      /* has its own primary line */
    bool spontaneous;    /* entry lists <spontaneous> as its parent */
    unsigned long long ncalls;      /* calls from other functions */
    unsigned long long self_calls;  /* the "+r" of "n+r" */
    long line;           /* where first seen */
    long entry_line;     /* its primary line, if any */
};

struct arc {
    long from, to;       /* gprof indices */
    unsigned long long count;
    long parent_side_line;  /* line in the callee's parent list, 0 if none */
    long child_side_line;   /* line in the caller's child list, 0 if none */
};

struct graph {
    const char *path;
    struct func **funcs;  /* separately allocated: pointers stay valid */
    size_t nfuncs;
    struct arc *arcs;
    size_t narcs;
};

struct flat_row {
    char *name;
    double percent;
    bool has_calls;             /* the calls column is blank when 0 */
    unsigned long long calls;
    long line;
};

struct flat {
    const char *path;
    struct flat_row *rows;
    size_t nrows;
};

static struct func *func_by_index(struct graph *g, long index)
{
    for (size_t i = 0; i < g->nfuncs; i++)
        if (g->funcs[i]->index == index)
            return g->funcs[i];
    return NULL;
}

/* A reference such as "is_even <cycle 1> [7]" parsed into its parts. */
struct ref {
    char *name;
    long cycle;
    long index;
};

/* Parse "NAME [<cycle N>] [I]" (or "(I)" for entries gprof did not print).
 * NAME is taken whole, so demangled names with spaces survive. */
static bool parse_ref(const char *s, size_t n, struct ref *r)
{
    const char *end = s + n, *open;
    unsigned long long v;

    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    end = s + n;
    if (n < 3 || (end[-1] != ']' && end[-1] != ')'))
        return false;
    open = end - 2;
    while (open > s && isdigit((unsigned char)*open))
        open--;
    if ((end[-1] == ']' && *open != '[') || (end[-1] == ')' && *open != '('))
        return false;
    if (!parse_count(open + 1, (size_t)(end - 1 - (open + 1)), &v) || v > 1000000000ULL)
        return false;
    if (open == s || (open[-1] != ' ' && open[-1] != '\t'))
        return false;
    r->index = (long)v;
    end = open;
    while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    r->cycle = 0;
    if (end > s && end[-1] == '>') {
        const char *lt = end - 1;
        while (lt > s && *lt != '<')
            lt--;
        if (*lt == '<' && (size_t)(end - lt) > 8 && strncmp(lt, "<cycle ", 7) == 0
            && lt > s && (lt[-1] == ' ' || lt[-1] == '\t')) {
            if (!parse_count(lt + 7, (size_t)(end - 1 - (lt + 7)), &v) || v == 0
                || v > 1000000000ULL)
                return false;
            r->cycle = (long)v;
            end = lt;
            while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
                end--;
        }
    }
    if (end == s)
        return false;
    r->name = xstrndup(s, (size_t)(end - s));
    return true;
}

/* Record that index I is called NAME; one index must always carry one name. */
static struct func *note_func(struct graph *g, const struct ref *r, long line)
{
    struct func *f = func_by_index(g, r->index);

    if (f != NULL) {
        if (strcmp(f->name, r->name) != 0 || f->cycle != r->cycle)
            fatal(g->path, line, "index [%ld] is '%s' here but '%s' at line %ld",
                  r->index, r->name, f->name, f->line);
        free(r->name);
        return f;
    }
    g->funcs = xrealloc(g->funcs, (g->nfuncs + 1) * sizeof *g->funcs);
    f = xrealloc(NULL, sizeof *f);
    g->funcs[g->nfuncs++] = f;
    memset(f, 0, sizeof *f);
    f->index = r->index;
    f->name = r->name;
    f->cycle = r->cycle;
    f->line = line;
    return f;
}

/* Each arc is printed twice: under the callee (as a parent) and under the
 * caller (as a child).  Both copies must agree; either one suffices, since
 * a caller with no calls and no time (unprofiled start-up code) gets no
 * entry of its own. */
static void note_arc(struct graph *g, long from, long to, unsigned long long count,
                     bool parent_side, long line)
{
    struct arc *a = NULL;

    for (size_t i = 0; i < g->narcs; i++)
        if (g->arcs[i].from == from && g->arcs[i].to == to)
            a = &g->arcs[i];
    if (a == NULL) {
        g->arcs = xrealloc(g->arcs, (g->narcs + 1) * sizeof *g->arcs);
        a = &g->arcs[g->narcs++];
        memset(a, 0, sizeof *a);
        a->from = from;
        a->to = to;
        a->count = count;
    } else if (a->count != count) {
        fatal(g->path, line, "arc [%ld] -> [%ld] shows %llu calls here but %llu at line %ld",
              from, to, count, a->count,
              a->parent_side_line ? a->parent_side_line : a->child_side_line);
    }
    if (parent_side) {
        if (a->parent_side_line)
            fatal(g->path, line, "arc [%ld] -> [%ld] listed twice (also line %ld)",
                  from, to, a->parent_side_line);
        a->parent_side_line = line;
    } else {
        if (a->child_side_line)
            fatal(g->path, line, "arc [%ld] -> [%ld] listed twice (also line %ld)",
                  from, to, a->child_side_line);
        a->child_side_line = line;
    }
}

/* An arc line under an entry: "self children COUNT/TOTAL ref" for an
 * ordinary arc, "COUNT ref" (no times, no slash) for self-recursion and for
 * calls between members of the same cycle. */
struct arc_line {
    struct ref ref;
    unsigned long long count;
    bool plain;  /* the "COUNT ref" form */
    long line;
};

static void parse_arc_line(const char *path, long line, const char *text, struct arc_line *al)
{
    const char *p = text, *t;
    size_t n = next_token(&p, &t);
    double d;
    unsigned long long total;

    al->line = line;
    if (all_digits(t, n)) {
        if (!parse_count(t, n, &al->count))
            fatal(path, line, "call count out of range");
        al->plain = true;
    } else {
        const char *slash;
        if (!parse_fixed(t, n, &d))
            fatal(path, line, "unrecognised call graph line: '%s'", text);
        n = next_token(&p, &t);
        if (!parse_fixed(t, n, &d))
            fatal(path, line, "expected a children time: '%s'", text);
        n = next_token(&p, &t);
        slash = memchr(t, '/', n);
        if (slash == NULL || !parse_count(t, (size_t)(slash - t), &al->count)
            || !parse_count(slash + 1, n - (size_t)(slash - t) - 1, &total))
            fatal(path, line, "expected COUNT/TOTAL: '%s'", text);
        al->plain = false;
    }
    p = skip_ws(p);
    if (!parse_ref(p, strlen(p), &al->ref))
        fatal(path, line, "expected 'name [index]': '%s'", text);
}

static bool is_dash_line(const char *s)
{
    size_t n = strlen(s);

    if (n < 10)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] != '-')
            return false;
    return true;
}

/* "called" column of a primary line: "N" or "N+R". */
static bool parse_called(const char *t, size_t n, unsigned long long *calls,
                         unsigned long long *self)
{
    const char *plus = memchr(t, '+', n);

    if (plus == NULL) {
        *self = 0;
        return parse_count(t, n, calls);
    }
    return parse_count(t, (size_t)(plus - t), calls)
        && parse_count(plus + 1, n - (size_t)(plus - t) - 1, self);
}

/* Index of the line after the first one IS_HEADER accepts, 0 if none. */
static size_t after_header(const struct lines *l, bool (*is_header)(const char *))
{
    for (size_t i = 0; i < l->count; i++)
        if (is_header(l->text[i]))
            return i + 1;
    return 0;
}

/* "index % time    self  children    called     name" */
static bool is_graph_header(const char *line)
{
    const char *p = line, *t;
    size_t n = next_token(&p, &t);

    return n == 5 && strncmp(t, "index", 5) == 0 && strstr(p, "% time") != NULL
        && strstr(p, "called") != NULL && strstr(p, "name") != NULL;
}

/* " time   seconds   seconds    calls  us/call  us/call  name" */
static bool is_flat_header(const char *line)
{
    const char *p = line, *t;
    size_t n = next_token(&p, &t), len = trimmed_len(line);

    return n == 4 && strncmp(t, "time", 4) == 0 && len >= 4
        && strncmp(line + len - 4, "name", 4) == 0 && strstr(p, "calls") != NULL;
}

static struct graph parse_graph(const char *path)
{
    struct graph g = { path, NULL, 0, NULL, 0 };
    struct lines l = read_lines(path);
    size_t i;
    struct arc_line *pending = NULL;
    size_t npending = 0;
    enum { BETWEEN, CHILDREN, MEMBERS } state = BETWEEN;
    struct func *entry = NULL;
    long cycle_of_block = 0;
    bool spontaneous = false;

    /* The table starts after the "index % time ... name" header; anything
     * before it (title, granularity, or a flat profile when one file holds
     * all of gprof's output) is not ours to read. */
    i = after_header(&l, is_graph_header);
    if (i == 0)
        fatal(path, 0, "no call graph header ('index %% time ... called name'): "
              "is this the output of gprof -b -q?");

    for (; i < l.count; i++) {
        const char *text = l.text[i], *p = text, *t;
        long line = (long)i + 1;
        size_t n;

        /* gprof ends the table with a form feed before its name index. */
        if (text[0] == '\f')
            break;
        if (is_dash_line(text)) {
            if (state == BETWEEN)
                fatal(path, line, "separator without an entry above it");
            state = BETWEEN;
            entry = NULL;
            continue;
        }
        if (text[0] == '\0' || trimmed_len(text) == 0)
            fatal(path, line, "blank line inside the call graph table "
                  "(was gprof run with -b and without -T?)");

        if (text[0] == '[') {
            /* Primary line: "[I] %time self children [called] ref". */
            unsigned long long idx, calls = 0, self = 0;
            double d;
            const char *rest;

            if (state != BETWEEN)
                fatal(path, line, "second primary line in one entry");
            n = next_token(&p, &t);
            if (n < 3 || t[n - 1] != ']' || !parse_count(t + 1, n - 2, &idx))
                fatal(path, line, "bad entry index: '%s'", text);
            for (int k = 0; k < 3; k++) {
                n = next_token(&p, &t);
                if (!parse_fixed(t, n, &d))
                    fatal(path, line, "expected %%time, self and children: '%s'", text);
            }
            rest = skip_ws(p);
            n = next_token(&p, &t);
            if (n > 0 && isdigit((unsigned char)t[0])) {
                if (!parse_called(t, n, &calls, &self))
                    fatal(path, line, "bad 'called' column: '%s'", text);
                rest = skip_ws(p);
            }
            if (strncmp(rest, "<cycle ", 7) == 0 && strstr(rest, " as a whole>") != NULL) {
                /* "<cycle N as a whole> [I]": the cycle's own summary, followed
                 * by one line per member; it is not a function. */
                unsigned long long cyc;
                const char *q = rest + 7, *num = q;
                while (isdigit((unsigned char)*q))
                    q++;
                if (npending || spontaneous || !parse_count(num, (size_t)(q - num), &cyc)
                    || strncmp(q, " as a whole>", 12) != 0)
                    fatal(path, line, "bad cycle summary: '%s'", text);
                cycle_of_block = (long)cyc;
                state = MEMBERS;
                continue;
            }
            {
                struct ref r;
                if (!parse_ref(rest, strlen(rest), &r) || (unsigned long long)r.index != idx)
                    fatal(path, line, "expected 'name [%llu]' at the end: '%s'", idx, text);
                entry = note_func(&g, &r, line);
            }
            if (entry->has_entry)
                fatal(path, line, "second entry for '%s' [%ld]", entry->name, entry->index);
            entry->has_entry = true;
            entry->entry_line = line;
            entry->spontaneous = spontaneous;
            entry->ncalls = calls;
            entry->self_calls = self;
            if (spontaneous && (calls != 0))
                fatal(path, line, "<spontaneous> entry with %llu calls from callers", calls);
            for (size_t k = 0; k < npending; k++) {
                struct arc_line *al = &pending[k];
                struct func *caller = note_func(&g, &al->ref, al->line);
                bool inside = caller == entry
                    || (entry->cycle != 0 && caller->cycle == entry->cycle);
                if (al->plain != inside)
                    fatal(path, al->line, "arc from '%s' printed as %s arc", caller->name,
                          al->plain ? "a recursive or intra-cycle" : "an ordinary");
                note_arc(&g, caller->index, entry->index, al->count, true, al->line);
            }
            npending = 0;
            spontaneous = false;
            state = CHILDREN;
            continue;
        }

        if (text[0] != ' ' && text[0] != '\t')
            fatal(path, line, "unrecognised call graph line (was gprof run with -b?): '%s'",
                  text);

        if (strcmp(skip_ws(text), "<spontaneous>") == 0) {
            if (state != BETWEEN || npending || spontaneous)
                fatal(path, line, "<spontaneous> where gprof never prints it");
            spontaneous = true;
            continue;
        }

        if (state == MEMBERS) {
            /* "self children called[+self] ref" of one cycle member. */
            unsigned long long calls, self;
            double d;
            struct ref r;
            for (int k = 0; k < 2; k++) {
                n = next_token(&p, &t);
                if (!parse_fixed(t, n, &d))
                    fatal(path, line, "bad cycle member line: '%s'", text);
            }
            n = next_token(&p, &t);
            if (!parse_called(t, n, &calls, &self))
                fatal(path, line, "bad cycle member call count: '%s'", text);
            p = skip_ws(p);
            if (!parse_ref(p, strlen(p), &r) || r.cycle != cycle_of_block)
                fatal(path, line, "expected a member of cycle %ld: '%s'", cycle_of_block, text);
            note_func(&g, &r, line);
            continue;
        }

        {
            struct arc_line al;
            parse_arc_line(path, line, text, &al);
            if (state == BETWEEN) {
                if (spontaneous)
                    fatal(path, line, "caller listed after <spontaneous>");
                pending = xrealloc(pending, (npending + 1) * sizeof *pending);
                pending[npending++] = al;
            } else {
                struct func *callee = note_func(&g, &al.ref, line);
                bool inside = callee == entry
                    || (entry->cycle != 0 && callee->cycle == entry->cycle);
                if (al.plain != inside)
                    fatal(path, line, "arc to '%s' printed as %s arc", callee->name,
                          al.plain ? "a recursive or intra-cycle" : "an ordinary");
                note_arc(&g, entry->index, callee->index, al.count, false, line);
            }
        }
    }
    if (state != BETWEEN || npending || spontaneous)
        fatal(path, (long)i, "call graph ends inside an entry (truncated file?)");
    free(pending);
    free_lines(&l);
    return g;
}

static struct flat parse_flat(const char *path)
{
    struct flat fl = { path, NULL, 0 };
    struct lines l = read_lines(path);
    size_t i;

    i = after_header(&l, is_flat_header);
    if (i == 0)
        fatal(path, 0, "no flat profile header (' time ... calls ... name'): "
              "is this the output of gprof -b -p?");

    for (; i < l.count; i++) {
        const char *text = l.text[i], *p = text, *t, *save;
        long line = (long)i + 1;
        double pct, d;
        size_t n;
        struct flat_row *row;
        struct ref r;
        unsigned long long calls = 0;
        bool row_has_calls;

        /* The table ends at a blank line or at the form feed that starts
         * gprof's next report. */
        if (text[0] == '\f' || trimmed_len(text) == 0)
            break;
        n = next_token(&p, &t);
        if (!parse_fixed(t, n, &pct))
            fatal(path, line, "unrecognised flat profile line: '%s'", text);
        for (int k = 0; k < 2; k++) {
            n = next_token(&p, &t);
            if (!parse_fixed(t, n, &d))
                fatal(path, line, "expected cumulative and self seconds: '%s'", text);
        }
        /* "calls self/call total/call" are present only for functions that
         * were called; a C name never starts with a digit. */
        save = p;
        n = next_token(&p, &t);
        row_has_calls = parse_count(t, n, &calls);
        if (row_has_calls) {
            for (int k = 0; k < 2; k++) {
                n = next_token(&p, &t);
                if (!parse_fixed(t, n, &d))
                    fatal(path, line, "expected calls, self/call and total/call: '%s'", text);
            }
        } else {
            p = save;
        }
        p = skip_ws(p);
        n = trimmed_len(p);
        /* A name never starts like a number, and even a demangled one has
         * single spaces only; anything else is a damaged column. */
        if (n == 0 || isdigit((unsigned char)*p) || *p == '.' || *p == '-'
            || memchr(p, '\t', n) != NULL || strstr(p, "  ") != NULL)
            fatal(path, line, "expected a function name after the numbers: '%s'", text);
        fl.rows = xrealloc(fl.rows, (fl.nrows + 1) * sizeof *fl.rows);
        row = &fl.rows[fl.nrows++];
        /* gprof -T adds " <cycle N> [I]"; keep the bare name. */
        row->name = parse_ref(p, n, &r) ? r.name : xstrndup(p, n);
        row->percent = pct;
        row->has_calls = row_has_calls;
        row->calls = calls;
        row->line = line;
    }
    for (; i < l.count; i++)
        if (l.text[i][0] == '\f')
            break;
        else if (trimmed_len(l.text[i]) != 0)
            fatal(path, (long)i + 1, "unexpected text after the flat profile "
                  "(was gprof run with -b?): '%s'", l.text[i]);
    free_lines(&l);
    return fl;
}

/* The flat profile and the call graph print the same call count for each
 * function (calls from other functions, recursion excluded).  Comparing
 * them catches a pair of files taken from different profiles, and a table
 * that lost rows. */
static void cross_check(const struct flat *fl, const struct graph *g)
{
    for (size_t i = 0; i < g->nfuncs; i++) {
        const struct func *f = g->funcs[i];
        const struct flat_row *row = NULL;
        size_t hits = 0, same_name = 0;

        if (!f->has_entry)
            continue;
        for (size_t k = 0; k < g->nfuncs; k++)
            same_name += strcmp(g->funcs[k]->name, f->name) == 0;
        for (size_t k = 0; k < fl->nrows; k++)
            if (strcmp(fl->rows[k].name, f->name) == 0) {
                row = &fl->rows[k];
                hits++;
            }
        if (same_name != 1 || hits > 1)
            continue;  /* same-named statics: cannot pair them up */
        if (row == NULL) {
            if (f->ncalls != 0)
                fatal(fl->path, 0, "no line for '%s', which %s:%ld shows called %llu times: "
                      "are both files from the same profile?", f->name, g->path,
                      f->entry_line, f->ncalls);
            continue;
        }
        if ((row->has_calls ? row->calls : 0) != f->ncalls)
            fatal(fl->path, row->line, "'%s' called %llu times here but %llu times in %s:%ld: "
                  "are both files from the same profile?", f->name,
                  row->has_calls ? row->calls : 0, f->ncalls, g->path, f->entry_line);
    }
    /* Conversely, gprof gives every called or sampled function an entry. */
    for (size_t k = 0; k < fl->nrows; k++) {
        const struct flat_row *row = &fl->rows[k];
        bool found = false;

        if (!row->has_calls && !(row->percent > 0.0))
            continue;
        for (size_t i = 0; i < g->nfuncs && !found; i++)
            found = g->funcs[i]->has_entry && strcmp(g->funcs[i]->name, row->name) == 0;
        if (!found)
            fatal(g->path, 0, "no entry for '%s', which %s:%ld shows called or sampled: "
                  "are both files from the same profile?", row->name, fl->path, row->line);
    }
}

/* ------------------------------------------------------------------ */
/* Expectations                                                        */

static const char *const SPONTANEOUS = "<spontaneous>";

static char failbuf[4096];
static size_t faillen;

static void failf(const char *fmt, ...)
{
    va_list ap;
    int k;

    if (faillen >= sizeof failbuf - 1)
        return;
    va_start(ap, fmt);
    k = vsnprintf(failbuf + faillen, sizeof failbuf - faillen, fmt, ap);
    va_end(ap);
    if (k > 0)
        faillen += (size_t)k;
    if (faillen >= sizeof failbuf)
        faillen = sizeof failbuf - 1;
}

/* Look a name up in the graph.  Returns NULL after explaining in the
 * failure text when the name is absent or ambiguous (two static functions
 * of one name get two entries that only their index tells apart). */
static struct func *resolve(struct graph *g, const char *name)
{
    struct func *hit = NULL;
    size_t hits = 0;

    for (size_t i = 0; i < g->nfuncs; i++)
        if (strcmp(g->funcs[i]->name, name) == 0) {
            hit = g->funcs[i];
            hits++;
        }
    if (hits == 0) {
        failf("'%s' appears nowhere in the call graph", name);
        return NULL;
    }
    if (hits > 1) {
        failf("'%s' names %zu different functions in the call graph:", name, hits);
        for (size_t i = 0; i < g->nfuncs; i++)
            if (strcmp(g->funcs[i]->name, name) == 0)
                failf(" [%ld]", g->funcs[i]->index);
        return NULL;
    }
    return hit;
}

static struct arc *find_arc(struct graph *g, long from, long to)
{
    for (size_t i = 0; i < g->narcs; i++)
        if (g->arcs[i].from == from && g->arcs[i].to == to)
            return &g->arcs[i];
    return NULL;
}

static int cmp_arc_count_desc(const void *a, const void *b)
{
    const struct arc *x = *(const struct arc *const *)a, *y = *(const struct arc *const *)b;

    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return x->from < y->from ? -1 : x->from > y->from;
}

/* Who calls F, for failure messages: " (f is called 110 times: main 100,
 * b 10)", or without the total " (callers: main 100, b 10)". */
static void describe_callers(struct graph *g, const struct func *f, bool with_total)
{
    const struct arc **list = NULL;
    size_t n = 0;
    unsigned long long total = 0;

    for (size_t i = 0; i < g->narcs; i++)
        if (g->arcs[i].to == f->index) {
            list = xrealloc(list, (n + 1) * sizeof *list);
            list[n++] = &g->arcs[i];
            total += g->arcs[i].count;
        }
    if (n == 0) {
        failf(" (gprof shows %s with no caller%s)", f->name,
              f->spontaneous ? ": <spontaneous>" : "");
        free(list);
        return;
    }
    qsort(list, n, sizeof *list, cmp_arc_count_desc);
    if (with_total)
        failf(" (%s is called %llu times:", f->name, total);
    else
        failf(" (callers:");
    for (size_t i = 0; i < n && i < MAX_LISTED_CALLERS; i++)
        failf("%s %s %llu", i ? "," : "", func_by_index(g, list[i]->from)->name,
              list[i]->count);
    if (n > MAX_LISTED_CALLERS)
        failf(", and %zu more", n - MAX_LISTED_CALLERS);
    failf(")");
    free(list);
}

/* Calls into F as recorded by the arcs gprof prints: its "n+r" total. */
static unsigned long long total_calls(struct graph *g, const struct func *f)
{
    unsigned long long total = 0;

    if (f->has_entry)
        return f->ncalls + f->self_calls;
    for (size_t i = 0; i < g->narcs; i++)
        if (g->arcs[i].to == f->index)
            total += g->arcs[i].count;
    return total;
}

/* Resolve both ends of CALLER -> CALLEE; *A is the arc or NULL (always
 * NULL for a <spontaneous> caller, which has no arcs).  False, with the
 * reason in the failure text, when a name does not resolve. */
static bool resolve_arc(struct graph *g, const char *caller, const char *callee,
                        struct func **to, struct arc **a)
{
    struct func *from;

    *a = NULL;
    *to = resolve(g, callee);
    if (*to == NULL)
        return false;
    if (strcmp(caller, SPONTANEOUS) == 0)
        return true;
    from = resolve(g, caller);
    if (from == NULL)
        return false;
    *a = find_arc(g, from->index, (*to)->index);
    return true;
}

static bool check_arc(struct graph *g, const char *caller, const char *callee,
                      bool has_count, unsigned long long want)
{
    struct func *to;
    struct arc *a;

    if (!resolve_arc(g, caller, callee, &to, &a))
        return false;
    if (strcmp(caller, SPONTANEOUS) == 0) {
        /* gprof prints no number beside <spontaneous>: it is shown exactly
         * when no arc into F was kept (arcs from addresses outside every
         * symbol are dropped), so the only count it can stand for is 0. */
        if (!to->spontaneous) {
            failf("gprof does not list %s as <spontaneous>", callee);
            describe_callers(g, to, true);
            return false;
        }
        if (has_count && want != 0) {
            failf("gprof lists %s as <spontaneous>, which carries no call count: "
                  "arcs from outside every symbol are dropped, so only 0 can match",
                  callee);
            return false;
        }
        return true;
    }
    if (a == NULL || a->count != want) {
        if (a == NULL)
            failf("gprof shows no arc from %s to %s", caller, callee);
        else
            failf("gprof shows %llu calls from %s to %s", a->count, caller, callee);
        describe_callers(g, to, true);
        return false;
    }
    return true;
}

static bool check_noarc(struct graph *g, const char *caller, const char *callee)
{
    struct func *to;
    struct arc *a;

    if (!resolve_arc(g, caller, callee, &to, &a))
        return false;
    if (strcmp(caller, SPONTANEOUS) == 0 && to->spontaneous) {
        failf("gprof lists %s as <spontaneous>", callee);
        return false;
    }
    if (a != NULL) {
        failf("gprof shows %llu calls from %s to %s", a->count, caller, callee);
        return false;
    }
    return true;
}

static bool check_calls(struct graph *g, const char *name, unsigned long long want)
{
    struct func *f = resolve(g, name);
    unsigned long long got;

    if (f == NULL)
        return false;
    got = total_calls(g, f);
    if (got == want)
        return true;
    failf("gprof shows %s called %llu times", name, got);
    if (f->self_calls)
        failf(", %llu of them recursive", f->self_calls);
    describe_callers(g, f, false);
    return false;
}

static bool check_share(struct flat *fl, struct graph *g, const char *name,
                        double want, double tol)
{
    const struct flat_row *row = NULL;
    size_t hits = 0;
    double got, diff;

    for (size_t i = 0; i < fl->nrows; i++)
        if (strcmp(fl->rows[i].name, name) == 0) {
            row = &fl->rows[i];
            hits++;
        }
    if (hits > 1) {
        failf("'%s' names %zu different functions in the flat profile", name, hits);
        return false;
    }
    if (row == NULL) {
        /* Not in the flat profile means no samples and no calls, i.e. 0%;
         * but a name that gprof shows nowhere is more likely a typo. */
        bool in_graph = false;
        for (size_t i = 0; i < g->nfuncs; i++)
            if (strcmp(g->funcs[i]->name, name) == 0)
                in_graph = true;
        if (!in_graph) {
            failf("'%s' appears nowhere in the flat profile or the call graph", name);
            return false;
        }
        got = 0.0;
    } else {
        got = row->percent;
    }
    diff = fabs(got - want);
    /* The flat profile prints two decimals; allow for the binary rounding
     * of the numbers read back, nothing more. */
    if (diff <= tol + 1e-9)
        return true;
    failf("gprof shows %s at %.2f%% of the time%s, %.2f points from %g (tolerance %g)",
          name, got, row ? "" : " (absent from the flat profile)", diff, want, tol);
    return false;
}

static bool parse_decimal(const char *s, double *out)
{
    char *end;

    if (!isdigit((unsigned char)s[0]) && s[0] != '.')
        return false;
    errno = 0;
    *out = strtod(s, &end);
    return *end == '\0' && errno == 0 && isfinite(*out);
}

struct expectation {
    long line;
    char *text;       /* normalised: single spaces, no EXPECT, no comment */
    char *argv[5];
    int argc;
};

static void parse_expectations(const char *path, struct expectation **out, size_t *nout)
{
    struct lines l = read_lines(path);
    struct expectation *ex = NULL;
    size_t n = 0;

    for (size_t i = 0; i < l.count; i++) {
        char *text = l.text[i], *hash = strchr(text, '#');
        const char *p, *t;
        size_t len;
        long line = (long)i + 1;
        struct expectation e;
        size_t tlen = 0;
        const char *kw;
        int want_min, want_max;

        if (hash != NULL)
            *hash = '\0';
        p = text;
        len = next_token(&p, &t);
        if (len == 0)
            continue;
        if (len == 6 && strncmp(t, "EXPECT", 6) == 0) {
            len = next_token(&p, &t);
            if (len == 0)
                fatal(path, line, "'EXPECT' without an expectation");
        }
        memset(&e, 0, sizeof e);
        e.line = line;
        e.text = xrealloc(NULL, strlen(text) + 1);
        while (len > 0) {
            if (e.argc == 5)
                fatal(path, line, "too many fields");
            e.argv[e.argc++] = xstrndup(t, len);
            if (tlen)
                e.text[tlen++] = ' ';
            memcpy(e.text + tlen, t, len);
            tlen += len;
            len = next_token(&p, &t);
        }
        e.text[tlen] = '\0';

        kw = e.argv[0];
        if (strcmp(kw, "arc") == 0) {
            /* "arc <spontaneous> F" may omit the count: gprof shows none. */
            want_max = 4;
            want_min = e.argc > 1 && strcmp(e.argv[1], SPONTANEOUS) == 0 ? 3 : 4;
        } else if (strcmp(kw, "calls") == 0 || strcmp(kw, "noarc") == 0) {
            want_min = want_max = 3;
        } else if (strcmp(kw, "share") == 0) {
            want_min = want_max = 4;
        } else {
            fatal(path, line, "unknown expectation '%s' (want arc, calls, noarc or share)", kw);
        }
        if (e.argc < want_min || e.argc > want_max)
            fatal(path, line, "'%s' takes %d arguments, got %d: '%s'", kw,
                  want_max - 1, e.argc - 1, e.text);
        if (strcmp(kw, "arc") == 0 || strcmp(kw, "calls") == 0) {
            unsigned long long v;
            const char *c = e.argv[e.argc - 1];
            if (e.argc == want_max && !parse_count(c, strlen(c), &v))
                fatal(path, line, "call count '%s' is not an unsigned integer", c);
        }
        if (strcmp(kw, "share") == 0) {
            double v;
            /* No upper bound: gprof's shares can add up to slightly over
             * 100 when histogram bins straddle symbol boundaries. */
            if (!parse_decimal(e.argv[2], &v))
                fatal(path, line, "percentage '%s' is not a non-negative decimal", e.argv[2]);
            if (!parse_decimal(e.argv[3], &v))
                fatal(path, line, "tolerance '%s' is not a non-negative decimal", e.argv[3]);
        }
        if ((strcmp(kw, "calls") == 0 || strcmp(kw, "share") == 0)
            && strcmp(e.argv[1], SPONTANEOUS) == 0)
            fatal(path, line, "'%s' is not a function", SPONTANEOUS);
        if ((strcmp(kw, "arc") == 0 || strcmp(kw, "noarc") == 0)
            && strcmp(e.argv[2], SPONTANEOUS) == 0)
            fatal(path, line, "'%s' can only be a caller", SPONTANEOUS);
        ex = xrealloc(ex, (n + 1) * sizeof *ex);
        ex[n++] = e;
    }
    free_lines(&l);
    /* An empty list would let a broken UART capture pass unnoticed. */
    if (n == 0)
        fatal(path, 0, "no expectations");
    *out = ex;
    *nout = n;
}

static bool run_one(struct graph *g, struct flat *fl, const struct expectation *e)
{
    const char *kw = e->argv[0];
    unsigned long long v = 0;

    if (strcmp(kw, "arc") == 0) {
        bool has = e->argc == 4;
        if (has)
            v = strtoull(e->argv[3], NULL, 10);
        return check_arc(g, e->argv[1], e->argv[2], has, v);
    }
    if (strcmp(kw, "noarc") == 0)
        return check_noarc(g, e->argv[1], e->argv[2]);
    if (strcmp(kw, "calls") == 0)
        return check_calls(g, e->argv[1], strtoull(e->argv[2], NULL, 10));
    return check_share(fl, g, e->argv[1], strtod(e->argv[2], NULL), strtod(e->argv[3], NULL));
}

static void usage(FILE *to)
{
    fprintf(to,
            "usage: gprof_check --flat FLAT.txt --graph GRAPH.txt --expect EXPECT.txt\n"
            "  FLAT.txt   output of gprof -b -p ELF gmon.out\n"
            "  GRAPH.txt  output of gprof -b -q ELF gmon.out\n"
            "  EXPECT.txt one per line, optionally prefixed by 'EXPECT ':\n"
            "    arc CALLER CALLEE COUNT   (CALLER may be <spontaneous>, COUNT then 0)\n"
            "    calls FUNC COUNT          (recursive calls included)\n"
            "    noarc CALLER CALLEE\n"
            "    share FUNC PERCENT TOL    (flat profile %% time)\n"
            "exit: 0 all hold, 1 some fail, 2 usage or unreadable input\n");
}

int main(int argc, char **argv)
{
    const char *flat_path = NULL, *graph_path = NULL, *expect_path = NULL;
    struct expectation *ex;
    size_t nex, passed = 0, failed = 0;
    struct graph g;
    struct flat fl;

    for (int i = 1; i < argc; i++) {
        const char **slot = NULL;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[i], "--flat") == 0)
            slot = &flat_path;
        else if (strcmp(argv[i], "--graph") == 0)
            slot = &graph_path;
        else if (strcmp(argv[i], "--expect") == 0)
            slot = &expect_path;
        if (slot == NULL || i + 1 == argc || *slot != NULL) {
            fprintf(stderr, "gprof_check: error: %s '%s'\n",
                    slot == NULL ? "unknown argument" : *slot ? "repeated option"
                                                              : "missing value for",
                    argv[i]);
            usage(stderr);
            return 2;
        }
        *slot = argv[++i];
    }
    if (flat_path == NULL || graph_path == NULL || expect_path == NULL) {
        fprintf(stderr, "gprof_check: error: --flat, --graph and --expect are all required\n");
        usage(stderr);
        return 2;
    }

    /* Read everything before judging anything, so an unreadable input
     * yields one error line and no partial verdicts. */
    parse_expectations(expect_path, &ex, &nex);
    fl = parse_flat(flat_path);
    g = parse_graph(graph_path);
    cross_check(&fl, &g);

    for (size_t i = 0; i < nex; i++) {
        faillen = 0;
        failbuf[0] = '\0';
        if (run_one(&g, &fl, &ex[i])) {
            printf("ok   %s\n", ex[i].text);
            passed++;
        } else {
            printf("FAIL %s: %s\n", ex[i].text, failbuf);
            failed++;
        }
    }
    printf("%zu passed, %zu failed\n", passed, failed);

    for (size_t i = 0; i < nex; i++) {
        for (int k = 0; k < ex[i].argc; k++)
            free(ex[i].argv[k]);
        free(ex[i].text);
    }
    free(ex);
    for (size_t i = 0; i < fl.nrows; i++)
        free(fl.rows[i].name);
    free(fl.rows);
    for (size_t i = 0; i < g.nfuncs; i++)
    {
        free(g.funcs[i]->name);
        free(g.funcs[i]);
    }
    free(g.funcs);
    free(g.arcs);
    return failed ? 1 : 0;
}
