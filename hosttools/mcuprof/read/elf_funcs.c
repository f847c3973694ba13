#include "elf_funcs.h"

#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "clone_names.h"
#include "diag.h"
#include "elf_info.h"
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
    size_t n = strlen(name);

    if (mp_arch_is_hook(name))
        return 1;
    return strncmp(name, "mcuprof_", 8) == 0 && !(n >= 6 && strcmp(name + n - 6, "_chain") == 0);
}

/* Which local names name a function here: not the ARM and RISC-V mapping
 * symbols ($t, $d, $x...), not labels (.L...), not GCC's marker; a name
 * with a dot only when it is a function's (GCC types every clone and cold
 * part STT_FUNC) or a GCC clone's name (clone_names.h). gprof is stricter
 * (gprof_keeps_local); each clone is a function of its own here. */
static int local_name_ok(const char *name, int is_func)
{
    if (name[0] == '\0' || name[0] == '.' || strchr(name, '$') ||
        strncmp(name, "__gnu_compiled", 14) == 0)
        return 0;
    return !strchr(name, '.') || is_func || mp_clone_origin_len(name) < strlen(name);
}

/* Non-zero when at least N bytes before END and the name's NUL are left
 * at P. */
static int chars_left(const char *p, const char *end, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (p + i >= end || !p[i])
            return 0;
    return 1;
}

/* binutils 2.40 gprof's core_sym_class on a local name at NAME in the
 * string table that ends at END, step by step: '$' rejects, a dot must be
 * followed by digits (".constprop." and ".clone." skipped first), so
 * .isra.N, .part.N and .cold are rejected; after ".constprop.N" the scan
 * steps over the name's terminating NUL into the next string of the table
 * and judges that one too. */
static int gprof_keeps_local(const char *name, const char *end)
{
    const char *p;

    if (name[0] == '\0' || name[0] == '.' || strncmp(name, "__gnu_compiled", 14) == 0)
        return 0;
    for (p = name; p < end && *p; ++p) {
        if (*p == '$')
            return 0;
        while (*p == '.') {
            int digit_seen = 0;

            /* gprof tests the length left first; only whether more than
             * 7 (11) bytes are left matters, so no more are counted: a
             * name of many dots stays linear */
            if (chars_left(p, end, 8) && strncmp(p, ".clone.", 7) == 0)
                p += 6;
            else if (chars_left(p, end, 12) && strncmp(p, ".constprop.", 11) == 0)
                p += 10;
            for (p++; p < end && *p; p++) {
                if (digit_seen && *p == '.')
                    break;
                if (*p >= '0' && *p <= '9')
                    digit_seen = 1;
                else
                    return 0;
            }
            if (p >= end)
                return 1;
        }
    }
    return 1;
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

static int collect(struct mp_functab *t, Elf *elf, struct raw **out, size_t *nout, uint64_t *hi)
{
    Elf_Scn *scn = NULL;
    struct raw *raw = NULL;
    size_t n = 0, cap = 0, pool_len = 0, pool_cap = 0;

    *hi = 0;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        GElf_Shdr strsh;
        Elf_Data *data, *strdata;
        size_t i, count, strsize, base;

        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
            continue;
        data = elf_getdata(scn, NULL);
        strdata = elf_getdata(elf_getscn(elf, sh.sh_link), NULL);
        if (!data || !strdata || !strdata->d_buf)
            continue;
        /* names are read in place: gprof's scan may run into the next one */
        strsize = gelf_getshdr(elf_getscn(elf, sh.sh_link), &strsh) ? strsh.sh_size : 0;
        /* The names are kept as the string table holds them, copied once:
         * symbols may all name one long string, and a copy each would
         * take their number times its length. */
        if (pool_len + strdata->d_size + 1 > pool_cap) {
            char *p;

            while (pool_len + strdata->d_size + 1 > pool_cap)
                pool_cap = pool_cap ? 2 * pool_cap : 4096;
            p = realloc(t->pool, pool_cap);
            if (!p)
                goto oom;
            t->pool = p;
        }
        memcpy(t->pool + pool_len, strdata->d_buf, strdata->d_size);
        t->pool[pool_len + strdata->d_size] = '\0';
        base = pool_len;
        pool_len += strdata->d_size + 1;
        count = sh.sh_size / sh.sh_entsize;
        for (i = 0; i < count; i++) {
            GElf_Sym sym;
            GElf_Shdr ss;
            Elf_Scn *sec;
            const char *name;
            int type, bind;

            if (!gelf_getsym(data, (int)i, &sym))
                break;
            type = GELF_ST_TYPE(sym.st_info);
            bind = GELF_ST_BIND(sym.st_info);
            if ((type != STT_NOTYPE && type != STT_FUNC && type != STT_OBJECT) ||
                sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
                (bind != STB_LOCAL && bind != STB_GLOBAL && bind != STB_WEAK))
                continue;
            sec = elf_getscn(elf, sym.st_shndx);
            if (!sec || !gelf_getshdr(sec, &ss) || !(ss.sh_flags & SHF_EXECINSTR))
                continue;
            name = elf_strptr(elf, sh.sh_link, sym.st_name);
            if (!name || name[0] == '\0' || (bind == STB_LOCAL && !local_name_ok(name, type == STT_FUNC)))
                continue;
            if (n == cap) {
                struct raw *r = realloc(raw, (cap = cap ? 2 * cap : 256) * sizeof(*raw));

                if (!r)
                    goto oom;
                raw = r;
            }
            if (sym.st_name >= strdata->d_size)
                continue; /* elf_strptr found it in another piece of the table */
            memset(&raw[n], 0, sizeof(raw[n]));
            raw[n].name_off = base + sym.st_name;
            raw[n].f.addr = type == STT_FUNC ? mp_code_addr(t->machine, sym.st_value) : sym.st_value;
            raw[n].f.size = sym.st_size;
            raw[n].f.is_static = bind == STB_LOCAL;
            raw[n].f.is_func = type == STT_FUNC;
            raw[n].f.gprof_drops = bind == STB_LOCAL && sym.st_name < strsize &&
                                   !gprof_keeps_local(name, name - sym.st_name + strsize);
            if (ss.sh_addr + ss.sh_size > *hi)
                *hi = ss.sh_addr + ss.sh_size;
            n++;
        }
        /* the first symbol table only (an ELF has one): more sections of
         * that type, over the same bytes of the file, would multiply it */
        break;
    }
    *out = raw;
    *nout = n;
    return 0;
oom:
    free(raw);
    return mp_error(t->path, "out of memory reading %zu symbols", n);
}

int mp_functab_read(struct mp_functab *t, const char *path)
{
    struct raw *raw = NULL;
    size_t n = 0, i, k;
    uint64_t hi;
    GElf_Ehdr eh;
    Elf *elf;
    int fd;

    memset(t, 0, sizeof(*t));
    t->path = path;
    if (mp_elf_open(path, &fd, &elf) < 0)
        return -1;
    if (!gelf_getehdr(elf, &eh)) {
        mp_elf_close(fd, elf);
        return mp_error(path, "unreadable ELF header: %s", elf_errmsg(-1));
    }
    t->machine = eh.e_machine;
    t->ptr_size = eh.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
    if (collect(t, elf, &raw, &n, &hi) < 0) {
        mp_elf_close(fd, elf);
        mp_functab_free(t);
        return -1;
    }
    mp_elf_close(fd, elf);
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
    for (i = 0, k = 0; i < n; i++) {
        if (k > 0 && t->f[k - 1].addr == raw[i].f.addr) {
            if (favoured(&raw[i].f, &t->f[k - 1]))
                t->f[k - 1] = raw[i].f;
            continue;
        }
        t->f[k++] = raw[i].f;
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

long mp_functab_gprof_owner(const struct mp_functab *t, size_t i)
{
    while (i < t->n && t->f[i].gprof_drops) {
        if (i == 0)
            return -1;
        i--;
    }
    return i < t->n ? (long)i : -1;
}

void mp_functab_free(struct mp_functab *t)
{
    free(t->f);
    free(t->pool);
    t->f = NULL;
    t->pool = NULL;
    t->n = 0;
}
