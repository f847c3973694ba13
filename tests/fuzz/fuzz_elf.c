/*
 * fuzz_elf.c - fuzz target: the firmware's ELF as `check` reads it (every
 * function decoded for the -pg call, tail calls and branches, the vector
 * table, the image's place, the bins, gprof's names) and as `convert
 * --elf` and `info --elf` read it (symbols, build-id, function table)
 * against a small valid image.
 */
#include "build_check.h"
#include "elf_funcs.h"
#include "elf_info.h"
#include "fuzz_common.h"
#include "trust.h"

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
    path = fuzz_file(0, data, size);
    {
        const char *const check[] = {"mcuprof", "check", path, NULL};

        fuzz_tool(check);
    }
    as_symbols(path);
    fuzz_end();
    return 0;
}
