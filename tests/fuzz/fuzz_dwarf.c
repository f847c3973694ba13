/*
 * fuzz_dwarf.c - fuzz target: the firmware's ELF with its DWARF line
 * tables, as `report --lines` and `convert --format callgrind` read them
 * (libdw behind model/dwarf_cu.c and model/model_lines.c). The profile is
 * made here for the ELF at hand: an image of its machine whose one range
 * covers its functions with a sample in every bin, so that every line
 * row gets samples to attribute.
 */
#include <string.h>

#include "elf_funcs.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t image[16384];
    struct mp_functab tab;
    const char *elf, *img;
    size_t len;

    fuzz_begin();
    elf = fuzz_file(0, data, size);
    if (mp_functab_read(&tab, elf) == 0) {
        len = fuzz_image_for_elf(&tab, image, sizeof(image));
        mp_functab_free(&tab);
        if (len) {
            const char *const report[] = {"mcuprof", "report", NULL, "--elf", elf, "--force",
                                          "--lines", NULL};
            const char *out = fuzz_out_path();
            const char *const convert[] = {"mcuprof", "convert", NULL, "--elf", elf, "--force",
                                           "--format", "callgrind", "-o", out, NULL};
            const char *argv[12];

            img = fuzz_file(1, image, len);
            memcpy(argv, report, sizeof(report));
            argv[2] = img;
            fuzz_tool(argv);
            memcpy(argv, convert, sizeof(convert));
            argv[2] = img;
            fuzz_tool(argv);
        }
    }
    fuzz_end();
    return 0;
}
