/*
 * board_conf.c - the boards' manifests, read in C (board_conf.h).
 */
#include "board_conf.h"

#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "file_open.h"
#include "host_dir.h"

#ifndef MCUPROF_SOURCE_BOARDS_DIR
#define MCUPROF_SOURCE_BOARDS_DIR ""
#endif

/* The longest path handled (Linux's PATH_MAX; Windows' is 260). */
#define BOARD_PATH_MAX 4096

const char *mp_boards_dir(void)
{
    static char dir[BOARD_PATH_MAX];
    char exe[BOARD_PATH_MAX];
    const char *env = getenv("MCUPROF_BOARDS_DIR");

    if (dir[0])
        return dir;
    if (env && env[0]) {
        if (!mp_is_dir(env)) {
            mp_error(env, "MCUPROF_BOARDS_DIR names no directory");
            return NULL;
        }
        snprintf(dir, sizeof(dir), "%s", env);
        return dir;
    }
    /* an installed tool: PREFIX/bin/mcuprof beside PREFIX/share/mcuprof/boards */
    if (mp_exe_dir(exe, sizeof(exe)) == 0 &&
        (size_t)snprintf(dir, sizeof(dir), "%s/../share/mcuprof/boards", exe) < sizeof(dir) && mp_is_dir(dir))
        return dir;
    if (mp_is_dir(MCUPROF_SOURCE_BOARDS_DIR)) {
        snprintf(dir, sizeof(dir), "%s", MCUPROF_SOURCE_BOARDS_DIR);
        return dir;
    }
    dir[0] = '\0';
    mp_error(NULL, "no board manifests: neither ../share/mcuprof/boards beside the mcuprof executable nor "
                   "MCUPROF_BOARDS_DIR (set it to the kit's boards/ directory)");
    return NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

struct name_list {
    const char *root;
    char (*names)[64];
    unsigned n, max;
};

/* NAME of the boards' folder is a board when it holds a readable
 * qemu.conf ("common" holds the architectures' defaults). */
static void add_board(const char *name, void *ctx)
{
    struct name_list *l = ctx;
    char path[BOARD_PATH_MAX];

    if (l->n >= l->max || name[0] == '.' || strcmp(name, "common") == 0 || strlen(name) >= 64)
        return;
    if ((size_t)snprintf(path, sizeof(path), "%s/%s/qemu.conf", l->root, name) >= sizeof(path) ||
        !mp_is_readable(path))
        return;
    snprintf(l->names[l->n++], 64, "%s", name);
}

int mp_board_names(char names[][64], unsigned max)
{
    struct name_list l = {mp_boards_dir(), names, 0, max};

    if (!l.root)
        return -1;
    if (mp_dir_each(l.root, add_board, &l) < 0)
        return mp_error(l.root, "cannot list the boards: %s", strerror(errno));
    qsort(names, l.n, 64, cmp_str);
    return (int)l.n;
}

void mp_board_list(char *buf, size_t size)
{
    static char names[MP_BOARDS_MAX][64];
    int i, n = mp_board_names(names, MP_BOARDS_MAX);
    size_t len = 0;

    buf[0] = '\0';
    for (i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", names[i]);
}

/* One KEY=VALUE line as the shell reads it for these files: VALUE bare, or
 * in double or single quotes. */
static int set_value(struct mp_board *b, const char *key, const char *val)
{
    static const struct {
        const char *key;
        size_t off, size;
    } keys[] = {
#define KEY(k, f) {k, offsetof(struct mp_board, f), sizeof(((struct mp_board *)0)->f)}
        KEY("BOARD_ARCH", arch),
        KEY("BOARD_CORE", core),
        KEY("QEMU_BIN", qemu_bin),
        KEY("QEMU_PACKAGE", qemu_package),
        KEY("QEMU_MACHINE", qemu_machine),
        KEY("QEMU_CPU", qemu_cpu),
        KEY("QEMU_EXTRA", qemu_extra),
#undef KEY
    };
    size_t i;

    if (strcmp(key, "QEMU_ICOUNT_SHIFT") == 0) {
        char *end;
        unsigned long v = strtoul(val, &end, 10);

        if (!isdigit((unsigned char)val[0]) || *end || v > 10)
            return -1;
        b->icount_shift = (unsigned)v;
        return 0;
    }
    for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (strcmp(key, keys[i].key) == 0)
            snprintf((char *)b + keys[i].off, keys[i].size, "%s", val);
    return 0;
}

static int read_conf(struct mp_board *b, const char *path)
{
    char line[1024], key[64];
    unsigned lineno = 0;
    FILE *f = mp_fopen(path, "r");

    if (!f)
        return mp_error(path, "cannot read the board manifest: %s", strerror(errno));
    while (fgets(line, sizeof(line), f)) {
        char *p = line, *eq, *val, *end;

        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0' || *p == '#')
            continue;
        eq = strchr(p, '=');
        if (!eq || eq == p || (size_t)(eq - p) >= sizeof(key)) {
            fclose(f);
            return mp_error(path, "line %u: not KEY=VALUE", lineno);
        }
        memcpy(key, p, (size_t)(eq - p));
        key[eq - p] = '\0';
        val = eq + 1;
        if (*val == '"' || *val == '\'') {
            end = strchr(val + 1, *val);
            if (!end) {
                fclose(f);
                return mp_error(path, "line %u: %s's quote is not closed", lineno, key);
            }
            *end = '\0';
            val++;
        } else {
            val[strcspn(val, " \t#")] = '\0';
        }
        if (set_value(b, key, val) < 0) {
            fclose(f);
            return mp_error(path, "line %u: %s '%s' is not a number from 0 to 10", lineno, key, val);
        }
    }
    fclose(f);
    return 0;
}

/* cpu.flags on one line, its lines joined by spaces. */
static void read_flags(struct mp_board *b)
{
    char path[BOARD_PATH_MAX + 16], line[256];
    size_t len = 0;
    FILE *f;

    b->cpu_flags[0] = '\0';
    snprintf(path, sizeof(path), "%s/cpu.flags", b->dir);
    if (!(f = mp_fopen(path, "r")))
        return;
    while (fgets(line, sizeof(line), f) && len < sizeof(b->cpu_flags)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0])
            len += (size_t)snprintf(b->cpu_flags + len, sizeof(b->cpu_flags) - len, "%s%s", len ? " " : "", line);
    }
    fclose(f);
}

/* A linker script number: 0x.., decimal, with K or M. */
static int ld_number(const char *s, uint64_t *v)
{
    char *end;

    errno = 0;
    *v = strtoull(s, &end, 0);
    if (end == s || errno)
        return -1;
    if (*end == 'K' || *end == 'k')
        *v <<= 10;
    else if (*end == 'M' || *end == 'm')
        *v <<= 20;
    return 0;
}

/* The regions of memory.ld's MEMORY block: "NAME (attr) : ORIGIN = A, LENGTH = L". */
static void read_memory(struct mp_board *b)
{
    char path[BOARD_PATH_MAX + 16], line[512];
    FILE *f;

    b->nregions = 0;
    snprintf(path, sizeof(path), "%s/memory.ld", b->dir);
    if (!(f = mp_fopen(path, "r")))
        return;
    while (fgets(line, sizeof(line), f) && b->nregions < MP_BOARD_REGIONS) {
        char *o = strstr(line, "ORIGIN"), *l = strstr(line, "LENGTH"), *p = line;
        struct mp_board_region *r = &b->region[b->nregions];
        size_t n;

        if (!o || !l || !(o = strchr(o, '=')) || !(l = strchr(l, '=')))
            continue;
        while (isspace((unsigned char)*p))
            p++;
        n = strcspn(p, " \t(:");
        if (n == 0 || n >= sizeof(r->name))
            continue;
        memcpy(r->name, p, n);
        r->name[n] = '\0';
        for (o++; isspace((unsigned char)*o); o++)
            ;
        for (l++; isspace((unsigned char)*l); l++)
            ;
        if (ld_number(o, &r->origin) == 0 && ld_number(l, &r->length) == 0 && r->length)
            b->nregions++;
    }
    fclose(f);
}

int mp_board_load(struct mp_board *b, const char *name)
{
    const char *root = mp_boards_dir();
    char path[BOARD_PATH_MAX], list[1024];

    memset(b, 0, sizeof(*b));
    if (!root)
        return -1;
    if (!name[0] || strlen(name) >= sizeof(b->name) || strpbrk(name, "/\\") || name[0] == '.' ||
        strcmp(name, "common") == 0 ||
        (size_t)snprintf(path, sizeof(path), "%s/%s/qemu.conf", root, name) >= sizeof(path) ||
        !mp_exists(path)) {
        mp_board_list(list, sizeof(list));
        mp_error(NULL, "unknown board '%s'; known boards: %s", name, list);
        return -2;
    }
    snprintf(b->name, sizeof(b->name), "%s", name);
    snprintf(b->dir, sizeof(b->dir), "%s/%s", root, name);
    /* the board's own values first, for BOARD_ARCH; then the
     * architecture's defaults, then the board's over them */
    if (read_conf(b, path) < 0)
        return -1;
    if (!b->arch[0])
        return mp_error(path, "no BOARD_ARCH");
    snprintf(path, sizeof(path), "%s/common/%s/arch.conf", root, b->arch);
    if (read_conf(b, path) < 0)
        return -1;
    snprintf(path, sizeof(path), "%s/%s/qemu.conf", root, name);
    if (read_conf(b, path) < 0)
        return -1;
    if (!b->qemu_bin[0] || !b->qemu_machine[0])
        return mp_error(path, "sets no %s", b->qemu_bin[0] ? "QEMU_MACHINE" : "QEMU_BIN (nor does its arch.conf)");
    read_flags(b);
    read_memory(b);
    return 0;
}
