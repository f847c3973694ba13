#include "elf_info.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <sys/stat.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

void mp_elf_each_symbol(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, mp_elf_symbol_fn *fn, void *arg)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    size_t i, n;

    if (!data || sh->sh_entsize == 0)
        return;
    n = sh->sh_size / sh->sh_entsize;
    for (i = 0; i < n; i++) {
        GElf_Sym sym;
        const char *name;

        /* An entry past the end of the data fails, and so does every one
         * after it. */
        if (!gelf_getsym(data, (int)i, &sym))
            break;
        name = elf_strptr(elf, sh->sh_link, sym.st_name);
        if (name)
            fn(&sym, name, arg);
    }
}

struct region_scan {
    struct mp_elf_info *e;
    int have_start, have_end;
};

static void region_symbol(const GElf_Sym *sym, const char *name, void *arg)
{
    struct region_scan *r = arg;

    if (strcmp(name, "__mcuprof_start") == 0) {
        r->e->start = sym->st_value;
        r->have_start = 1;
    } else if (strcmp(name, "__mcuprof_end") == 0) {
        r->e->end = sym->st_value;
        r->have_end = 1;
    }
}

static void scan_symbols(struct mp_elf_info *e, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
    struct region_scan r = {e, 0, 0};

    mp_elf_each_symbol(elf, scn, sh, region_symbol, &r);
    if (r.have_start && r.have_end)
        e->has_region = 1;
}

static void scan_notes(struct mp_elf_info *e, Elf_Scn *scn)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    size_t off = 0, name_off, desc_off;
    GElf_Nhdr nh;

    if (!data)
        return;
    while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
            memcmp((const char *)data->d_buf + name_off, "GNU", 4) == 0 && nh.n_descsz > 0 &&
            nh.n_descsz <= sizeof(e->build_id)) {
            memcpy(e->build_id, (const uint8_t *)data->d_buf + desc_off, nh.n_descsz);
            e->build_id_len = nh.n_descsz;
            return;
        }
    }
}

/* A truncated ELF (a copy cut short) reads as one without symbols or
 * notes: say what it is. The header and the section and program header
 * tables must lie inside the file. */
static int check_extent(const char *path, int fd, Elf *elf)
{
    GElf_Ehdr eh;
    struct stat st;
    uint64_t sh_end, ph_end;

    if (!gelf_getehdr(elf, &eh))
        return mp_error(path, "truncated or corrupt ELF header: %s", elf_errmsg(-1));
    if (fstat(fd, &st) != 0)
        return mp_error(path, "cannot stat: %s", strerror(errno));
    sh_end = eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize;
    ph_end = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
    if (sh_end > (uint64_t)st.st_size || ph_end > (uint64_t)st.st_size || sh_end < eh.e_shoff ||
        ph_end < eh.e_phoff)
        return mp_error(path, "truncated: its header tables end at byte %" PRIu64 " but the file "
                              "has %jd bytes", sh_end > ph_end ? sh_end : ph_end,
                        (intmax_t)st.st_size);
    return 0;
}

int mp_elf_open(const char *path, int *fd, Elf **elf)
{
    *elf = NULL;
    *fd = -1;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return mp_error(path, "libelf is unusable: %s", elf_errmsg(-1));
    *fd = open(path, O_RDONLY);
    if (*fd < 0)
        return mp_error(path, "cannot open: %s", strerror(errno));
    *elf = elf_begin(*fd, ELF_C_READ, NULL);
    if (!*elf || elf_kind(*elf) != ELF_K_ELF) {
        mp_error(path, "not an ELF file%s%s", *elf ? "" : ": ", *elf ? "" : elf_errmsg(-1));
        goto fail;
    }
    if (check_extent(path, *fd, *elf) < 0)
        goto fail;
    return 0;
fail:
    mp_elf_close(*fd, *elf);
    *fd = -1;
    *elf = NULL;
    return -1;
}

void mp_elf_close(int fd, Elf *elf)
{
    if (elf)
        elf_end(elf);
    if (fd >= 0)
        close(fd);
}

int mp_elf_read(struct mp_elf_info *e, const char *path)
{
    GElf_Ehdr eh;
    Elf_Scn *scn = NULL;
    Elf *elf;
    int fd;

    memset(e, 0, sizeof(*e));
    e->path = path;
    if (mp_elf_open(path, &fd, &elf) < 0)
        return -1;
    if (gelf_getehdr(elf, &eh)) {
        e->machine = eh.e_machine;
        e->ptr_size = gelf_getclass(elf) == ELFCLASS64 ? 8 : 4;
        e->big = eh.e_ident[EI_DATA] == ELFDATA2MSB;
    }
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;

        if (!gelf_getshdr(scn, &sh))
            continue;
        if (sh.sh_type == SHT_SYMTAB)
            scan_symbols(e, elf, scn, &sh);
        else if (sh.sh_type == SHT_NOTE && e->build_id_len == 0)
            scan_notes(e, scn);
    }
    mp_elf_close(fd, elf);
    return 0;
}
