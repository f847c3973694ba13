#include "elf_funcs.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "diag.h"
#include "elf_info.h"
#include "local_names.h"
#include "sort.h"

int mp_gprof_hides(const char *name)
{
    /* binutils gprof/gprof.c default_excluded_list */
    static const char *const hidden[] = {
        "_gprof_mcount", "mcount", "_mcount", "__mcount", "__mcount_internal",
        "__mcleanup", "_mcleanup",
    };
    size_t i;

    for (i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++) {
        if (strcmp(name, hidden[i]) == 0)
            return 1;
    }
    return 0;
}

int mp_runtime_symbol(const char *name)
{
    size_t n;

    if (mp_arch_is_hook(name))
        return 1;
    if (strncmp(name, "mcuprof_", 8) != 0)
        return 0; /* (no strlen: it is asked of every function's name) */
    n = strlen(name);
    return !(n >= 6 && strcmp(name + n - 6, "_chain") == 0);
}

struct raw {
    struct mp_func f;
    size_t name_off;
};

static int cmp_addr(const void *a, const void *b)
{
    const struct mp_func *l = &((const struct raw *)a)->f, *r = &((const struct raw *)b)->f;

    if (l->addr != r->addr)
        return l->addr < r->addr ? -1 : 1;
    if (l->is_func != r->is_func)
        return r->is_func - l->is_func;
    if (l->is_static != r->is_static)
        return l->is_static - r->is_static;
    return 0;
}

/* symtab_finalize: does SRC replace DST at the same address? */
static int favoured(const struct mp_func *src, const struct mp_func *dst)
{
    if (!src->is_static && dst->is_static)
        return 1;
    if (src->is_static != dst->is_static)
        return 0;
    if (src->is_func && !dst->is_func)
        return 1;
    if (src->is_func != dst->is_func)
        return 0;
    return (src->name[0] != '_' && dst->name[0] == '_') ||
           (src->name[0] && src->name[1] != '_' && dst->name[1] == '_');
}

static int collect(struct mp_functab *t, const struct mp_elf_file *f, struct raw **out, size_t *nout,
                   uint64_t *hi)
{
    struct raw *raw = NULL;
    size_t n = 0, cap = 0, pool_len = 0, pool_cap = 0, sec;
    struct mp_local_names names = {0};

    *hi = 0;
    for (sec = 1; sec < f->shnum; sec++) {
        const struct mp_elf_shdr *sh = &f->sh[sec], *strsh;
        const uint8_t *strdata;
        size_t i, count, strsize, strbytes, base, names_end;
        const char *tab;

        if (sh->type != MP_SHT_SYMTAB)
            continue;
        strdata = mp_elf_section_data(f, sh->link, &strbytes);
        if (!strdata)
            continue;
        strsh = &f->sh[sh->link];
        strsize = strsh->size;
        /* The names are kept as the string table holds them, copied once:
         * symbols may all name one long string, and a copy each would
         * take their number times its length. */
        if (pool_len + strbytes + 1 > pool_cap) {
            char *p;

            while (pool_len + strbytes + 1 > pool_cap)
                pool_cap = pool_cap ? 2 * pool_cap : 4096;
            p = realloc(t->pool, pool_cap);
            if (!p)
                goto oom;
            t->pool = p;
        }
        memcpy(t->pool + pool_len, strdata, strbytes);
        t->pool[pool_len + strbytes] = '\0';
        base = pool_len;
        pool_len += strbytes + 1;
        tab = t->pool + base;
        /* Each name is judged from a table of every offset's verdicts
         * (local_names.h), and found without a scan for its NUL from its
         * offset: symbols may all point into one long string. A name is
         * one in a string table, with a NUL after it. */
        if (mp_local_names_scan(&names, tab, strbytes, strsize < strbytes ? strsize : strbytes) < 0)
            goto oom;
        names_end = 0;
        if (strsh->type == MP_SHT_STRTAB) {
            size_t z = strsize < strbytes ? strsize : strbytes;

            while (z > 0 && tab[z - 1] != '\0')
                z--;
            names_end = z; /* names start below the table's last NUL */
        }
        count = mp_elf_symbol_count(f, sec);
        for (i = 0; i < count; i++) {
            struct mp_elf_sym sym;
            const struct mp_elf_shdr *ss;
            const char *name;
            unsigned type, bind;

            if (mp_elf_symbol(f, sec, i, &sym) < 0)
                break;
            type = MP_ELF_ST_TYPE(sym.info);
            bind = MP_ELF_ST_BIND(sym.info);
            if ((type != MP_STT_NOTYPE && type != MP_STT_FUNC && type != MP_STT_OBJECT) ||
                sym.shndx == MP_SHN_UNDEF || sym.shndx >= MP_SHN_LORESERVE ||
                (bind != MP_STB_LOCAL && bind != MP_STB_GLOBAL && bind != MP_STB_WEAK))
                continue;
            if (sym.shndx >= f->shnum || !((ss = &f->sh[sym.shndx])->flags & MP_SHF_EXECINSTR))
                continue;
            if (sym.name >= names_end)
                continue;
            name = tab + sym.name;
            if (name[0] == '\0' || (bind == MP_STB_LOCAL && !mp_local_name_ok(&names, tab, sym.name, type == MP_STT_FUNC)))
                continue;
            if (n == cap) {
                struct raw *r = realloc(raw, (cap = cap ? 2 * cap : 256) * sizeof(*raw));

                if (!r)
                    goto oom;
                raw = r;
            }
            memset(&raw[n], 0, sizeof(raw[n]));
            raw[n].name_off = base + sym.name;
            raw[n].f.addr = type == MP_STT_FUNC ? mp_code_addr(t->machine, sym.value) : sym.value;
            raw[n].f.size = sym.size;
            raw[n].f.is_static = bind == MP_STB_LOCAL;
            raw[n].f.is_func = type == MP_STT_FUNC;
            raw[n].f.gprof_drops = bind == MP_STB_LOCAL && sym.name < strsize &&
                                   !mp_local_name_gprof_ok(&names, tab, sym.name);
            if (ss->addr + ss->size > *hi)
                *hi = ss->addr + ss->size;
            n++;
        }
        /* the first symbol table only (an ELF has one): more sections of
         * that type, over the same bytes of the file, would multiply it */
        break;
    }
    mp_local_names_free(&names);
    *out = raw;
    *nout = n;
    return 0;
oom:
    mp_local_names_free(&names);
    free(raw);
    return mp_error(t->path, "out of memory reading %zu symbols", n);
}

int mp_functab_read(struct mp_functab *t, const char *path)
{
    struct raw *raw = NULL;
    size_t n = 0, i, k;
    uint64_t hi;
    struct mp_elf_file f;

    memset(t, 0, sizeof(*t));
    t->path = path;
    if (mp_elf_file_open(&f, path) < 0)
        return -1;
    t->machine = f.machine;
    t->ptr_size = f.is64 ? 8 : 4;
    if (collect(t, &f, &raw, &n, &hi) < 0) {
        mp_elf_file_close(&f);
        mp_functab_free(t);
        return -1;
    }
    mp_elf_file_close(&f);
    if (n == 0) {
        free(raw);
        mp_functab_free(t);
        return mp_error(path, "no symbols in executable sections (stripped?): cannot name functions");
    }
    for (i = 0; i < n; i++)
        raw[i].f.name = t->pool + raw[i].name_off;
    mp_sort(raw, n, sizeof(*raw), cmp_addr);
    t->f = malloc(n * sizeof(*t->f));
    if (!t->f) {
        free(raw);
        mp_functab_free(t);
        return mp_error(path, "out of memory for %zu functions", n);
    }
    for (i = 0, k = 0; i < n;) {
        /* one address: gprof's survivor, and the best function symbol */
        const struct mp_func *gp = &raw[i].f, *fn = raw[i].f.is_func ? &raw[i].f : NULL;
        size_t j;

        for (j = i + 1; j < n && raw[j].f.addr == raw[i].f.addr; j++) {
            if (favoured(&raw[j].f, gp))
                gp = &raw[j].f;
            if (raw[j].f.is_func && (!fn || favoured(&raw[j].f, fn)))
                fn = &raw[j].f;
        }
        /* A label (a linker script's __data_start, _sdata) that gprof
         * prefers to the static function at its address names that
         * function's samples and calls in gprof's report; mcuprof's own
         * outputs name the function, and `check` says what gprof shows. */
        if (!gp->is_func && fn) {
            t->f[k] = *fn;
            t->f[k].gprof_name = gp->name;
        } else {
            t->f[k] = *gp;
        }
        k++;
        i = j;
    }
    free(raw);
    t->n = k;
    for (i = 0; i < k; i++) {
        t->f[i].end = i + 1 < k ? t->f[i + 1].addr : hi;
        if (t->f[i].end < t->f[i].addr)
            t->f[i].end = t->f[i].addr;
        t->f[i].hidden = (unsigned char)mp_gprof_hides(t->f[i].name);
    }
    return 0;
}

void mp_functab_free(struct mp_functab *t)
{
    free(t->f);
    free(t->pool);
    t->f = NULL;
    t->pool = NULL;
    t->n = 0;
}
