/*
 * fuzz_elf.c - fuzz target: the tool's ELF reader (elf_file.h) walked
 * through every accessor, and the firmware's ELF as `check` reads it (every
 * function decoded for the -pg call, tail calls and branches, the vector
 * table, the image's place, the bins, gprof's names) and as `convert
 * --elf` and `info --elf` read it (symbols, build-id, function table)
 * against a small valid image.
 */
#include <string.h>

#include "build_check.h"
#include "elf_file.h"
#include "elf_funcs.h"
#include "elf_info.h"
#include "elf_note.h"
#include "fuzz_common.h"
#include "trust.h"

/* Every section's name, bytes and symbols, every symbol's name, the
 * build-id: what opening checked must hold for each read. */
static volatile unsigned read_sum; /* what was read, so it is read */

static void as_file(const uint8_t *data, size_t size)
{
    struct mp_elf_file f;
    uint8_t id[64];
    unsigned sum = 0;

    if (mp_elf_file_from_memory(&f, "fuzz.elf", data, size) < 0)
        return;
    for (size_t i = 0; i < f.shnum; i++) {
        const char *name = mp_elf_section_name(&f, i);
        const uint8_t *d;
        size_t len;

        if (name)
            sum += (unsigned)strlen(name);
        if ((d = mp_elf_section_data(&f, i, &len)) != NULL)
            sum += d[0] + d[len - 1];
        for (size_t k = 0, n = mp_elf_symbol_count(&f, i); k < n; k++) {
            struct mp_elf_sym sym;
            const char *s;

            if (mp_elf_symbol(&f, i, k, &sym) == 0 && (s = mp_elf_string(&f, f.sh[i].link, sym.name)))
                sum += (unsigned)strlen(s);
        }
    }
    sum += (unsigned)mp_elf_build_id(&f, id, sizeof(id));
    read_sum = sum;
    mp_elf_file_close(&f);
}

static void as_symbols(const char *path)
{
    static const struct mp_trust_opts opts = MP_TRUST_DEFAULTS;
    struct mp_elf_info elf;
    struct mp_functab tab;
    struct mp_model m;

    if (mp_elf_read(&elf, path) == 0)
        mp_build_check(fuzz_valid_image(), &elf, 1);
    if (mp_functab_read(&tab, path) < 0)
        return;
    if (mp_model_from_image(&m, fuzz_valid_image()) == 0) {
        if (mp_model_attach_functab(&m, &tab) == 0) {
            mp_trust_print(fuzz_sink(), &m, &opts);
            mp_trust_warn(&m, &opts);
        }
        mp_model_free(&m);
    }
    mp_functab_free(&tab);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path;

    fuzz_begin();
    as_file(data, size);
    path = fuzz_file(0, data, size);
    {
        const char *const check[] = {"mcuprof", "check", path, NULL};

        fuzz_tool(check);
    }
    as_symbols(path);
    fuzz_end();
    return 0;
}
