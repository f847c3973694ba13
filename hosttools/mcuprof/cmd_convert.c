#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "build_check.h"
#include "commands.h"
#include "diag.h"
#include "elf_funcs.h"
#include "elf_info.h"
#include "file_io.h"
#include "gmon_write.h"
#include "image_read.h"
#include "output.h"
#include "trust.h"

void mp_help_convert(FILE *f)
{
    fputs("Usage: mcuprof convert IMAGE [-o OUT] [--format gnu|bsd] [--elf FILE [--force]]\n"
          "                       [--warn PCT] [--shared-threshold PCT] [--min-samples N]\n"
          "\n"
          "Convert a profile image (the raw bytes of the target's profile RAM block,\n"
          "starting with its header) into a gmon.out for gprof.\n"
          "\n"
          "  -o, --output OUT     output file (default gmon.out)\n"
          "  -f, --format FORMAT  gnu: GNU tagged format, several ranges (default)\n"
          "                       bsd: BSD 4.4 layout, one range, bins cut at 65535\n"
          "  -e, --elf FILE       the firmware's ELF: refuse an image whose build-id\n"
          "                       differs from the ELF's NT_GNU_BUILD_ID note\n"
          "                       and one built for another machine; with it, warn\n"
          "                       about histogram bins gprof splits between functions\n"
          "      --force          convert despite a build-id mismatch (a warning)\n"
          MP_TRUST_HELP
          "  -h, --help           this text\n"
          "\n"
          "The image is validated completely first; if anything is wrong, no output\n"
          "is created. OUT is written to a temporary file beside it and renamed into\n"
          "place, so it is either complete or untouched.\n"
          "\n"
          "Call sites: the target records return addresses. A call that ends a\n"
          "function (to a noreturn function) returns to the first byte of the next\n"
          "function, and gprof would blame that one. The call site written is the\n"
          "return address minus 2 (Thumb bit cleared on ARM), which lies inside the\n"
          "call instruction on ARM and RISC-V. Callers that are not code (0, or\n"
          "EXC_RETURN values on ARM for interrupt handlers) are written as 0: gprof\n"
          "shows <spontaneous> and leaves those calls out of the call count.\n"
          "\n"
          "Counts: histogram bins above 65535 travel as repeated histogram records\n"
          "of the same range, which gprof adds up; saturated arc counts (0xffffffff)\n"
          "are written as is, with a warning. A sample rate of 0 is written as 1 Hz.\n"
          "An image without ranges gets one empty 1-bin histogram record, because\n"
          "gprof rejects a gmon.out without one. Warnings are printed only when the\n"
          "output is written; a failure prints one error line.\n"
          "\n"
          "Trust: warnings (never a failure, never a change to OUT) when samples outside\n"
          "every range, saturated or frozen samples, or missed sampler periods exceed\n"
          "--warn % of the samples, when there are fewer than --min-samples samples, and\n"
          "(with --elf) when bins shared by two functions hold more than\n"
          "--shared-threshold % of them. 'mcuprof info IMAGE --elf ELF' shows the details.\n",
          f);
}

static int parse_format(const char *s, enum mp_gmon_format *format)
{
    if (strcmp(s, "gnu") == 0)
        *format = MP_GMON_GNU;
    else if (strcmp(s, "bsd") == 0)
        *format = MP_GMON_BSD;
    else
        return mp_error(NULL, "convert: --format '%s' is neither gnu nor bsd", s);
    return 0;
}

/* The build-id check first: it is the precise answer to "wrong ELF". Then
 * the function table, for the shared-bin warning; --force converts with
 * an ELF of another machine too, without that warning. Returns 1 when TAB
 * and ATTRIB are filled. */
static int check_elf(const struct mp_image *img, const char *elf_path, int force,
                     struct mp_functab *tab, struct mp_attrib *attrib)
{
    struct mp_elf_info elf;

    mp_file_note_input(elf_path);
    if (mp_elf_read(&elf, elf_path) < 0 || mp_build_check(img, &elf, force) < 0 ||
        mp_functab_read(tab, elf_path) < 0)
        return -1;
    /* Only with --force (mp_build_check refused it otherwise and warned):
     * the bins are not checked against another machine's functions. */
    if (tab->machine != img->machine || tab->ptr_size != img->ptr_size) {
        mp_functab_free(tab);
        return 0;
    }
    if (mp_attrib_compute(attrib, img, tab) < 0) {
        mp_functab_free(tab);
        return -1;
    }
    return 1;
}

static int convert(const char *in, const char *out, enum mp_gmon_format format,
                   const char *elf_path, int force, const struct mp_trust_opts *o)
{
    struct mp_functab tab;
    struct mp_attrib attrib;
    struct mp_image img;
    uint8_t *data = NULL;
    size_t len;
    int ret = MP_EXIT_FAIL, have_elf = 0;

    mp_diag_hold();
    if (mp_read_file(in, MP_IMAGE_MAX, &data, &len) < 0)
        goto out_release;
    if (mp_image_parse(&img, in, data, len) < 0)
        goto out_free;
    if (elf_path && (have_elf = check_elf(&img, elf_path, force, &tab, &attrib)) < 0) {
        have_elf = 0;
        goto out_free;
    }
    if (mp_output_gmon(&img, out, format) < 0)
        goto out_free;
    mp_trust_warn(&img, o, have_elf ? &tab : NULL, have_elf ? &attrib : NULL);
    ret = MP_EXIT_OK;

out_free:
    if (have_elf) {
        mp_attrib_free(&attrib);
        mp_functab_free(&tab);
    }
    free(data);
out_release:
    mp_diag_release(ret == MP_EXIT_OK);
    return ret;
}

int mp_cmd_convert(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {"elf", required_argument, NULL, 'e'},
        {"force", no_argument, NULL, 'F'},
        MP_TRUST_LONGOPTS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct mp_trust_opts o = MP_TRUST_DEFAULTS;
    enum mp_gmon_format format = MP_GMON_GNU;
    const char *out = "gmon.out", *elf = NULL;
    char *pos[1];
    int npos = 0, c, force = 0;

    while ((c = mp_getopt(argc, argv, "o:f:e:h", longopts, pos, 1, &npos)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case 'f':
            if (parse_format(optarg, &format) < 0)
                return MP_EXIT_USAGE;
            break;
        case 'e':
            elf = optarg;
            break;
        case 'F':
            force = 1;
            break;
        case 'W':
        case 'S':
        case 'M':
            if (mp_trust_option(c, optarg, &o) < 0)
                return MP_EXIT_USAGE;
            break;
        case 'h':
            mp_help_convert(stdout);
            return MP_EXIT_OK;
        default:
            return MP_EXIT_USAGE;
        }
    }
    if (npos != 1) {
        mp_error(NULL, "convert: expected one IMAGE, got %d (see 'mcuprof help convert')", npos);
        return MP_EXIT_USAGE;
    }
    if (out[0] == '\0') {
        mp_error(NULL, "convert: empty output name");
        return MP_EXIT_USAGE;
    }
    return convert(pos[0], out, format, elf, force, &o);
}
