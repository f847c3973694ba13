/*
 * name_regex.c - POSIX extended regular expressions as a Thompson NFA
 * (name_regex.h).
 *
 * Three steps: the pattern is parsed into a tree (nodes in one array,
 * a concatenation or an alternation keeps its parts as a list, so a
 * long pattern makes a wide tree, not a deep one); the tree becomes a
 * program of NFA states, each repetition written out as copies of its
 * body (x{2,4} is x x x? x?); the program runs over the name keeping
 * every live state at once, with a mark per state so that a loop that
 * matches the empty string ((a*)*) is entered once per step.
 */
#include "name_regex.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the tree ---- */

enum node_kind { N_BYTE, N_ANY, N_SET, N_BOL, N_EOL, N_CAT, N_ALT, N_REP };

#define REP_INF (-1)

struct node {
    enum node_kind kind;
    int first, next;  /* N_CAT, N_ALT, N_REP: the first part; every node: its next sibling, -1 none */
    int min, max;     /* N_REP: the counts, max REP_INF for none */
    unsigned value;   /* N_BYTE: the byte; N_SET: the set's index */
};

typedef uint8_t byte_set[32];

struct parser {
    const unsigned char *p;
    struct node *nodes;
    unsigned nnodes, cap_nodes;
    byte_set *sets;
    unsigned nsets, cap_sets;
    int depth;
    char *why;
    size_t why_size;
    int failed;
};

static int fail(struct parser *ps, const char *fmt, ...)
{
    va_list ap;

    if (!ps->failed) {
        va_start(ap, fmt);
        vsnprintf(ps->why, ps->why_size, fmt, ap);
        va_end(ap);
        ps->failed = 1;
    }
    return -1;
}

static int new_node(struct parser *ps, enum node_kind kind)
{
    struct node *n;

    /* the arrays are sized from the pattern's length: never full */
    if (ps->nnodes >= ps->cap_nodes)
        return fail(ps, "Regular expression too big");
    n = &ps->nodes[ps->nnodes];
    memset(n, 0, sizeof(*n));
    n->kind = kind;
    n->first = n->next = -1;
    return (int)ps->nnodes++;
}

/* ---- bracket expressions ---- */

static void set_add(byte_set s, unsigned c)
{
    s[c >> 3] |= (uint8_t)(1u << (c & 7));
}

static int set_has(const byte_set s, unsigned c)
{
    return (s[c >> 3] >> (c & 7)) & 1;
}

/* The character classes of the C locale: ASCII only. */
static int in_class(const char *name, size_t len, unsigned c)
{
    int upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z', digit = c >= '0' && c <= '9';
    int print = c >= 0x20 && c < 0x7f;

#define IS(n) (len == sizeof(n) - 1 && memcmp(name, n, len) == 0)
    if (IS("alpha")) return upper || lower;
    if (IS("digit")) return digit;
    if (IS("alnum")) return upper || lower || digit;
    if (IS("upper")) return upper;
    if (IS("lower")) return lower;
    if (IS("space")) return c == ' ' || (c >= '\t' && c <= '\r');
    if (IS("blank")) return c == ' ' || c == '\t';
    if (IS("punct")) return print && c != ' ' && !upper && !lower && !digit;
    if (IS("xdigit")) return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (IS("cntrl")) return c < 0x20 || c == 0x7f;
    if (IS("print")) return print;
    if (IS("graph")) return print && c != ' ';
#undef IS
    return -1;
}

/* One element after '[' of "[:", "[." or "[=" at *P (P past the '['
 * and the kind): its text up to the closing "K]", into *TEXT and *LEN;
 * *P past it. */
static int bracket_term(struct parser *ps, const unsigned char **p, char kind, const char **text, size_t *len)
{
    const unsigned char *start = *p, *q = start;

    while (*q && !(q[0] == (unsigned char)kind && q[1] == ']'))
        q++;
    if (!*q)
        return fail(ps, "Unmatched [, [^, [:, [., or [=");
    *text = (const char *)start;
    *len = (size_t)(q - start);
    *p = q + 2;
    return 0;
}

/* A bracket expression, PS->p just past the '['. */
static int parse_bracket(struct parser *ps)
{
    const unsigned char *p = ps->p;
    byte_set set;
    int negate = 0, first = 1, id, after_range = 0;
    unsigned c;

    memset(set, 0, sizeof(set));
    if (*p == '^') {
        negate = 1;
        p++;
    }
    for (;;) {
        int lo = -1, is_class = 0;
        const char *text = NULL;
        size_t len = 0;

        if (!*p)
            return fail(ps, "Unmatched [, [^, [:, [., or [=");
        if (*p == ']' && !first)
            break;
        if (after_range && p[0] == '-' && p[1] != ']')
            return fail(ps, "Invalid range end");
        after_range = 0;
        first = 0;
        if (p[0] == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
            char kind = (char)p[1];

            p += 2;
            if (bracket_term(ps, &p, kind, &text, &len) < 0)
                return -1;
            if (kind == ':') {
                if (in_class(text, len, 'a') < 0)
                    return fail(ps, "Invalid character class name");
                for (c = 0; c < 256; c++)
                    if (in_class(text, len, c) == 1)
                        set_add(set, c);
                is_class = 1;
            } else if (len != 1) {
                return fail(ps, "Invalid collation character");
            } else {
                lo = (unsigned char)text[0];
            }
        } else {
            lo = *p++;
        }
        /* a range: "-" then anything but the closing ']' */
        if (p[0] == '-' && p[1] != ']' && p[1]) {
            int hi;

            if (is_class)
                return fail(ps, "Invalid range end");
            p++;
            if (p[0] == '[' && (p[1] == '.' || p[1] == '=')) {
                char kind = (char)p[1];

                p += 2;
                if (bracket_term(ps, &p, kind, &text, &len) < 0)
                    return -1;
                if (len != 1)
                    return fail(ps, "Invalid collation character");
                hi = (unsigned char)text[0];
            } else if (p[0] == '[' && p[1] == ':') {
                return fail(ps, "Invalid range end");
            } else {
                hi = *p++;
            }
            if (hi < lo)
                return fail(ps, "Invalid range end");
            for (c = (unsigned)lo; c <= (unsigned)hi; c++)
                set_add(set, c);
            after_range = 1;
        } else if (lo >= 0) {
            set_add(set, (unsigned)lo);
        }
    }
    ps->p = p + 1;
    if (negate)
        for (c = 0; c < 32; c++)
            set[c] = (uint8_t)~set[c];
    if (ps->nsets >= ps->cap_sets)
        return fail(ps, "Regular expression too big");
    memcpy(ps->sets[ps->nsets], set, sizeof(set));
    if ((id = new_node(ps, N_SET)) < 0)
        return -1;
    ps->nodes[id].value = ps->nsets++;
    return id;
}

/* ---- the rest of the grammar ---- */

static int parse_alt(struct parser *ps);

/* A decimal count of {m,n}: its value, or -1 when there are no digits. */
static long bound(struct parser *ps)
{
    long v = -1;

    while (*ps->p >= '0' && *ps->p <= '9') {
        v = (v < 0 ? 0 : v) * 10 + (*ps->p++ - '0');
        if (v > MP_NAME_REGEX_DUP_MAX)
            v = MP_NAME_REGEX_DUP_MAX + 1; /* too big, said below */
    }
    return v;
}

/* "{m}", "{m,}", "{m,n}", "{,n}" with PS->p past the '{'. */
static int parse_braces(struct parser *ps, int *min, int *max)
{
    long m, n;

    m = bound(ps);
    n = m;
    if (*ps->p == ',') {
        ps->p++;
        n = bound(ps);
        if (n < 0)
            n = REP_INF;
        if (m < 0)
            m = 0;
    }
    if (*ps->p != '}')
        return fail(ps, *ps->p ? "Invalid content of \\{\\}" : "Unmatched \\{");
    if (m < 0)
        return fail(ps, "Invalid content of \\{\\}");
    ps->p++;
    if (m > MP_NAME_REGEX_DUP_MAX || n > MP_NAME_REGEX_DUP_MAX)
        return fail(ps, "Regular expression too big");
    if (n != REP_INF && n < m)
        return fail(ps, "Invalid content of \\{\\}");
    *min = (int)m;
    *max = (int)n;
    return 0;
}

/* An atom: -1 on an error; *QUANTIFIABLE 0 for an anchor. */
static int parse_atom(struct parser *ps, int *quantifiable)
{
    unsigned c = *ps->p;
    int id;

    *quantifiable = 1;
    switch (c) {
    case '(':
        if (++ps->depth > MP_NAME_REGEX_MAX_DEPTH)
            return fail(ps, "Nested too deeply (over %d groups and repetitions)", MP_NAME_REGEX_MAX_DEPTH);
        ps->p++;
        if ((id = parse_alt(ps)) < 0)
            return -1;
        if (*ps->p != ')')
            return fail(ps, "Unmatched ( or \\(");
        ps->p++;
        ps->depth--;
        return id;
    case '.':
        ps->p++;
        return new_node(ps, N_ANY);
    case '[':
        ps->p++;
        return parse_bracket(ps);
    case '^':
    case '$':
        ps->p++;
        *quantifiable = 0;
        return new_node(ps, c == '^' ? N_BOL : N_EOL);
    case '*':
    case '+':
    case '?':
    case '{':
        return fail(ps, "Invalid preceding regular expression");
    case '\\':
        c = ps->p[1];
        if (!c)
            return fail(ps, "Trailing backslash");
        if (c >= '1' && c <= '9')
            return fail(ps, "Back references (\\%c) are not supported", (char)c);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '0' || c == '<' || c == '>' || c == '`' ||
            c == '\'')
            return fail(ps, "Unsupported escape \\%c (a backslash escapes a special character only)", (char)c);
        ps->p += 2;
        break;
    default:
        ps->p++;
        break;
    }
    if ((id = new_node(ps, N_BYTE)) >= 0)
        ps->nodes[id].value = c;
    return id;
}

/* An atom and its repetitions. */
static int parse_piece(struct parser *ps)
{
    int quantifiable, id = parse_atom(ps, &quantifiable), stacked = 0;

    while (id >= 0 && (*ps->p == '*' || *ps->p == '+' || *ps->p == '?' || *ps->p == '{')) {
        int min = 0, max = 0, rep;

        if (!quantifiable)
            return fail(ps, "Invalid preceding regular expression");
        if (ps->depth + ++stacked > MP_NAME_REGEX_MAX_DEPTH)
            return fail(ps, "Nested too deeply (over %d groups and repetitions)", MP_NAME_REGEX_MAX_DEPTH);
        switch (*ps->p++) {
        case '*': min = 0, max = REP_INF; break;
        case '+': min = 1, max = REP_INF; break;
        case '?': min = 0, max = 1; break;
        default:
            if (parse_braces(ps, &min, &max) < 0)
                return -1;
            break;
        }
        if ((rep = new_node(ps, N_REP)) < 0)
            return -1;
        ps->nodes[rep].first = id;
        ps->nodes[rep].min = min;
        ps->nodes[rep].max = max;
        id = rep;
    }
    return id;
}

/* Pieces up to '|', the group's ')' or the end. */
static int parse_cat(struct parser *ps)
{
    int cat = new_node(ps, N_CAT), last = -1;

    while (cat >= 0 && *ps->p && *ps->p != '|' && !(*ps->p == ')' && ps->depth > 0)) {
        int id = parse_piece(ps);

        if (id < 0)
            return -1;
        if (last < 0)
            ps->nodes[cat].first = id;
        else
            ps->nodes[last].next = id;
        last = id;
    }
    return cat;
}

static int parse_alt(struct parser *ps)
{
    int alt = new_node(ps, N_ALT), last = -1;

    while (alt >= 0) {
        int id = parse_cat(ps);

        if (id < 0)
            return -1;
        if (last < 0)
            ps->nodes[alt].first = id;
        else
            ps->nodes[last].next = id;
        last = id;
        if (*ps->p != '|')
            break;
        ps->p++;
    }
    return alt;
}

/* ---- the program ---- */

enum op { OP_BYTE, OP_ANY, OP_SET, OP_SPLIT, OP_JMP, OP_BOL, OP_EOL, OP_MATCH };

struct inst {
    uint8_t op;
    uint8_t byte;
    unsigned x, y; /* OP_SPLIT: both ways; OP_JMP: x; OP_SET: x the set */
};

struct mp_name_regex {
    struct inst *prog;
    unsigned n;
    byte_set *sets;
    /* the simulation's room, allocated once: two lists of states, the
     * marks, a stack for the closure */
    unsigned *list[2], *mark, *stack, gen;
};

struct gen {
    struct parser *ps;
    struct inst *prog;
    unsigned n;
};

static int emit(struct gen *g, enum op op, unsigned x, unsigned y)
{
    if (g->n >= MP_NAME_REGEX_MAX_STATES)
        return fail(g->ps, "Regular expression too big (over %d states once its repetitions are written out)",
                    MP_NAME_REGEX_MAX_STATES);
    g->prog[g->n].op = (uint8_t)op;
    g->prog[g->n].byte = 0;
    g->prog[g->n].x = x;
    g->prog[g->n].y = y;
    return (int)g->n++;
}

static int gen_node(struct gen *g, int id);

/* x{min,max} as min copies of x, then x* or (max - min) times x?. */
static int gen_rep(struct gen *g, const struct node *nd)
{
    int i, split;

    for (i = 0; i < nd->min; i++)
        if (gen_node(g, nd->first) < 0)
            return -1;
    if (nd->max == REP_INF) {
        /* L: split body, out; body; jmp L */
        if ((split = emit(g, OP_SPLIT, 0, 0)) < 0 || gen_node(g, nd->first) < 0 ||
            emit(g, OP_JMP, (unsigned)split, 0) < 0)
            return -1;
        g->prog[split].x = (unsigned)split + 1;
        g->prog[split].y = g->n;
        return 0;
    }
    for (i = nd->min; i < nd->max; i++) {
        if ((split = emit(g, OP_SPLIT, 0, 0)) < 0 || gen_node(g, nd->first) < 0)
            return -1;
        g->prog[split].x = (unsigned)split + 1;
        g->prog[split].y = g->n;
    }
    return 0;
}

/* a|b|c: split a, (split b, c), each part but the last ending in a jump
 * aimed later at the alternation's end (gen_node, N_ALT). */
static int gen_alt(struct gen *g, const struct node *nd)
{
    int part, split, jmp;

    for (part = nd->first; part >= 0; part = g->ps->nodes[part].next) {
        if (g->ps->nodes[part].next < 0)
            return gen_node(g, part);
        if ((split = emit(g, OP_SPLIT, 0, 0)) < 0 || gen_node(g, part) < 0 || (jmp = emit(g, OP_JMP, 0, 0)) < 0)
            return -1;
        g->prog[split].x = (unsigned)split + 1;
        g->prog[split].y = g->n;
        g->prog[jmp].x = UINT32_MAX;
    }
    return 0;
}

static int gen_node(struct gen *g, int id)
{
    const struct node *nd = &g->ps->nodes[id];
    int part, r;

    switch (nd->kind) {
    case N_BYTE:
        if ((r = emit(g, OP_BYTE, 0, 0)) >= 0)
            g->prog[r].byte = (uint8_t)nd->value;
        return r < 0 ? -1 : 0;
    case N_ANY: return emit(g, OP_ANY, 0, 0) < 0 ? -1 : 0;
    case N_SET: return emit(g, OP_SET, nd->value, 0) < 0 ? -1 : 0;
    case N_BOL: return emit(g, OP_BOL, 0, 0) < 0 ? -1 : 0;
    case N_EOL: return emit(g, OP_EOL, 0, 0) < 0 ? -1 : 0;
    case N_CAT:
        for (part = nd->first; part >= 0; part = g->ps->nodes[part].next)
            if (gen_node(g, part) < 0)
                return -1;
        return 0;
    case N_ALT: {
        unsigned start = g->n, i;

        if (gen_alt(g, nd) < 0)
            return -1;
        /* every jump of this alternation not yet aimed goes to its end;
         * the inner alternations aimed theirs before */
        for (i = start; i < g->n; i++)
            if (g->prog[i].op == OP_JMP && g->prog[i].x == UINT32_MAX)
                g->prog[i].x = g->n;
        return 0;
    }
    case N_REP: return gen_rep(g, nd);
    }
    return -1;
}

/* ---- compile, search, free ---- */

void mp_name_regex_free(struct mp_name_regex *re)
{
    if (!re)
        return;
    free(re->prog);
    free(re->sets);
    free(re->list[0]);
    free(re->list[1]);
    free(re->mark);
    free(re->stack);
    free(re);
}

int mp_name_regex_compile(struct mp_name_regex **out, const char *pattern, char *why, size_t why_size)
{
    struct parser ps;
    struct gen g;
    struct mp_name_regex *re = NULL;
    size_t len = strlen(pattern);
    int root;

    *out = NULL;
    memset(&ps, 0, sizeof(ps));
    ps.p = (const unsigned char *)pattern;
    ps.why = why;
    ps.why_size = why_size;
    /* at most a piece, a repetition and a list node for each byte */
    ps.cap_nodes = (unsigned)(3 * len + 4);
    ps.cap_sets = (unsigned)(len / 2 + 1);
    if (len > MP_NAME_REGEX_MAX_STATES * 4u) {
        fail(&ps, "Regular expression too big (a pattern of %zu bytes)", len);
        return -1;
    }
    ps.nodes = malloc(ps.cap_nodes * sizeof(*ps.nodes));
    ps.sets = malloc(ps.cap_sets * sizeof(*ps.sets));
    re = calloc(1, sizeof(*re));
    g.ps = &ps;
    g.n = 0;
    g.prog = malloc(MP_NAME_REGEX_MAX_STATES * sizeof(*g.prog));
    if (!ps.nodes || !ps.sets || !re || !g.prog) {
        fail(&ps, "Out of memory");
        goto bad;
    }
    /* at the outermost level a ')' is a literal: the parse ends at the end */
    root = parse_alt(&ps);
    if (ps.failed || gen_node(&g, root) < 0 || emit(&g, OP_MATCH, 0, 0) < 0)
        goto bad;
    re->prog = realloc(g.prog, g.n * sizeof(*g.prog));
    if (!re->prog)
        re->prog = g.prog;
    g.prog = NULL;
    re->n = g.n;
    re->sets = ps.sets;
    ps.sets = NULL;
    re->list[0] = malloc(re->n * sizeof(unsigned));
    re->list[1] = malloc(re->n * sizeof(unsigned));
    re->mark = calloc(re->n, sizeof(unsigned));
    re->stack = malloc((2 * re->n + 2) * sizeof(unsigned));
    if (!re->list[0] || !re->list[1] || !re->mark || !re->stack) {
        fail(&ps, "Out of memory");
        goto bad;
    }
    free(ps.nodes);
    *out = re;
    return 0;
bad:
    free(g.prog);
    free(ps.nodes);
    free(ps.sets);
    mp_name_regex_free(re);
    return -1;
}

/* A new generation of marks: a state is in this step's list when its
 * mark is the generation. */
static void next_gen(struct mp_name_regex *re)
{
    if (++re->gen == 0) {
        memset(re->mark, 0, re->n * sizeof(unsigned));
        re->gen = 1;
    }
}

/* Add PC and every state it reaches without a byte to LIST (*N states),
 * at position POS (AT_END: the end of the string). 1 when the match
 * state is reached. */
static int add(struct mp_name_regex *re, unsigned *list, unsigned *n, unsigned pc, size_t pos, int at_end)
{
    unsigned sp = 0, *stack = re->stack;

    stack[sp++] = pc;
    while (sp > 0) {
        const struct inst *in;

        pc = stack[--sp];
        if (re->mark[pc] == re->gen)
            continue;
        re->mark[pc] = re->gen;
        in = &re->prog[pc];
        switch (in->op) {
        case OP_MATCH: return 1;
        case OP_JMP: stack[sp++] = in->x; break;
        case OP_SPLIT:
            stack[sp++] = in->y;
            stack[sp++] = in->x;
            break;
        case OP_BOL:
            if (pos == 0)
                stack[sp++] = pc + 1;
            break;
        case OP_EOL:
            if (at_end)
                stack[sp++] = pc + 1;
            break;
        default: list[(*n)++] = pc; break;
        }
    }
    return 0;
}

int mp_name_regex_search(const struct mp_name_regex *cre, const char *s)
{
    /* the room is scratch space, not the pattern: the pattern stays as
     * compiled */
    struct mp_name_regex *re = (struct mp_name_regex *)cre;
    const unsigned char *u = (const unsigned char *)s;
    unsigned *cur = re->list[0], *nxt = re->list[1], ncur = 0;
    size_t pos;

    next_gen(re);
    if (add(re, cur, &ncur, 0, 0, u[0] == '\0'))
        return 1;
    for (pos = 0; u[pos]; pos++) {
        unsigned c = u[pos], nnxt = 0, i, *t;
        int end = u[pos + 1] == '\0';

        next_gen(re);
        for (i = 0; i < ncur; i++) {
            const struct inst *in = &re->prog[cur[i]];
            int ok = in->op == OP_ANY || (in->op == OP_BYTE && in->byte == c) ||
                     (in->op == OP_SET && set_has(re->sets[in->x], c));

            if (ok && add(re, nxt, &nnxt, cur[i] + 1, pos + 1, end))
                return 1;
        }
        /* a match may begin at the next byte too */
        if (add(re, nxt, &nnxt, 0, pos + 1, end))
            return 1;
        t = cur;
        cur = nxt;
        nxt = t;
        ncur = nnxt;
    }
    return 0;
}
