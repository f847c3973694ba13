#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "diag.h"
#include "file_io.h"
#include "model.h"
#include "model_load.h"
#include "no_calls_warn.h"
#include "output.h"
#include "timing.h"
#include "trust.h"

static void mp_help_convert(FILE *f)
{
    fputs("Usage: mcuprof convert IMAGE [-o OUT] [--format F[:FILE],...] [--elf FILE [--force]]\n"
          "                       [--warn PCT] [--shared-threshold PCT] [--min-samples N]\n"
          "                       [--no-demangle] [-q]\n"
          "\n"
          "Convert a profile image (the raw bytes of the target's profile RAM block,\n"
          "starting with its header) into gmon.out for gprof, or any other format.\n"
          "\n"
          "  -o, --output OUT       the output of a single format (default: the format's\n"
          "                         default file, gmon.out for gnu; -: standard output)\n",
          f);
    mp_outputs_help(f);
    fputs("  -e, --elf FILE         the firmware's ELF: refuse an image whose build-id\n"
          "                         differs from the ELF's NT_GNU_BUILD_ID note\n"
          "                         and one built for another machine; with it, warn\n"
          "                         about histogram bins gprof splits between functions;\n"
          "                         the other formats take function names and source\n"
          "                         lines (DWARF) from it\n"
          "      --force            convert an image the ELF does not match (a warning):\n"
          "                         another build-id, place or size (the ELF's\n"
          "                         __mcuprof_start.._end), or machine (then no names)\n"
          MP_TRUST_HELP
          "      --no-demangle      C++ names as the ELF spells them (not demangled)\n"
          "  -q, --quiet            no line per file written, no notes: warnings and\n"
          "                         errors only\n"
          "  -h, --help             this text\n"
          "\n"
          "The image is validated completely first; if anything is wrong, no output\n"
          "is created. Each output is written to a temporary file beside it and renamed\n"
          "into place, so it is either complete or untouched; every format's checks run\n"
          "and every output is complete before the first is put in place, so a failure\n"
          "replaces none. Each output written is said on stderr, one line each:\n"
          "'mcuprof: wrote gmon.out: 10,249 samples, 29 arcs, nothing lost' (the\n"
          "format named when the file's name does not tell it, the losses named).\n"
          "An output that is not a regular file is written in place:\n"
          "-o - and /dev/stdout (or /dev/fd/N) through that descriptor, so\n"
          "'-o /dev/stdout >> log' appends to the log; a FIFO or a device opened and\n"
          "written. A terminal is refused bytes it would act on (gmon.out is binary).\n"
          "\n"
          "Call sites: the target records return addresses. A call that ends a\n"
          "function (to a noreturn function) returns to the first byte of the next\n"
          "function, and gprof would blame that one. The call site written is the\n"
          "return address minus 2 (Thumb bit cleared on ARM), which lies inside the\n"
          "call instruction on ARM and RISC-V. Callers that are not code (0, or\n"
          "EXC_RETURN values on ARM for interrupt handlers) are written as 0: gprof\n"
          "shows <spontaneous> and leaves those calls out of the call count.\n"
          "\n"
          "gmon.out: histogram bins above 65535 (the image's spill table carries them)\n"
          "travel as repeated histogram records of the same range, which gprof adds up;\n"
          "the BSD layout, which has one record, divides every bin and the rate by one\n"
          "factor instead (docs/formats/gmon.md); saturated arc counts (0xffffffff) are\n"
          "written as is, with a warning. A sample rate of 0 is written as 1 Hz. An\n"
          "image without ranges gets one empty 1-bin histogram record, because gprof\n"
          "rejects a gmon.out without one. Warnings are printed only when the output\n"
          "is written; a failure prints one error line.\n"
          "\n"
          "Trust: warnings (never a failure, never a change to OUT) when samples outside\n"
          "every range, saturated or frozen samples, missed sampler periods or samples\n"
          "the sampler took late exceed --warn % of the samples, for every interrupt\n"
          "the sampler cannot preempt, when there are fewer than --min-samples samples, and\n"
          "(with --elf) when bins shared by two functions hold more than\n"
          "--shared-threshold % of them. 'mcuprof info IMAGE --elf ELF' shows the details.\n",
          f);
}

/* The build-id check first: it is the precise answer to "wrong ELF".
 * Then the functions, for the formats that name them and the shared-bin
 * warning; --force converts with an ELF of another machine too, without
 * its names. Source lines when a format wants them. */
static int convert(const char *in, const struct mp_outputs *outs, const char *elf_path, int force,
                   const struct mp_trust_opts *o)
{
    struct mp_image_elf e = {elf_path, 1, force, 1};
    struct mp_model model;
    uint8_t *data = NULL;
    size_t len;
    int ret = MP_EXIT_FAIL;

    mp_diag_hold();
    if (elf_path)
        mp_file_note_input(elf_path);
    if (mp_read_file(in, MP_IMAGE_MAX, &data, &len) < 0)
        goto out_release;
    if (mp_model_load_image(&model, in, data, len, &e) < 0)
        goto out_free;
    /* lines need the functions: none with another machine's ELF */
    if (model.elf_path && (mp_outputs_needs(outs) & MP_WANTS_LINES) && mp_model_attach_lines(&model) < 0)
        goto out_model;
    if (mp_outputs_write(outs, &model, NULL) == 0) {
        mp_trust_warn(&model, o);
        mp_warn_no_calls(&model);
        mp_timing_warn(&model, o->warn_pct);
        ret = MP_EXIT_OK;
    }
out_model:
    mp_model_free(&model);
out_free:
    free(data);
out_release:
    mp_diag_release(ret == MP_EXIT_OK);
    return ret;
}

static int mp_cmd_convert(int argc, char **argv)
{
    static const struct option longopts[] = {
        /* Each command lists its own options, as getopt_long wants them:
         * only the trust options are common, and they come in as one macro. */
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
        {"elf", required_argument, NULL, 'e'},
        {"force", no_argument, NULL, 'F'},
        MP_TRUST_LONGOPTS,
        MP_NO_DEMANGLE_LONGOPT,
        MP_GROUP_CLONES_LONGOPT,
        MP_QUIET_LONGOPT,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct mp_trust_opts o = MP_TRUST_DEFAULTS;
    struct mp_outputs outs = {0};
    const char *elf = NULL;
    char *pos[1];
    int npos = 0, c, ret, force = 0;

    while ((c = mp_getopt(argc, argv, "o:f:e:qh", longopts, pos, 1, &npos)) != -1) {
        switch (c) {
        case 'o':
            outs.out = optarg;
            break;
        case 'f':
            if (mp_outputs_add(&outs, optarg) < 0)
                return MP_EXIT_USAGE;
            break;
        case 'e':
            elf = optarg;
            break;
        case 'F':
            force = 1;
            break;
        case 'q':
            mp_diag_set_quiet(1);
            break;
        default:
            if ((ret = mp_trust_or_help(c, optarg, &o, mp_help_convert)) != MP_OPTION_TAKEN)
                return ret;
            break;
        }
    }
    if (npos != 1) {
        mp_error(NULL, "convert: expected one IMAGE, got %d (see 'mcuprof help convert')", npos);
        return MP_EXIT_USAGE;
    }
    if (outs.out && outs.out[0] == '\0') {
        mp_error(NULL, "convert: empty output name");
        return MP_EXIT_USAGE;
    }
    if (mp_outputs_finish(&outs) < 0)
        return MP_EXIT_USAGE;
    if ((mp_outputs_needs(&outs) & MP_NEEDS_ELF) && !elf) {
        mp_error(NULL, "convert: the formats asked for need the firmware's names: give --elf");
        return MP_EXIT_USAGE;
    }
    return convert(pos[0], &outs, elf, force, &o);
}

/* The summary names every format there is. */
static void describe_convert(char *buf, size_t size)
{
    char names[160];

    mp_formats_list(names, sizeof(names), " or ");
    snprintf(buf, size, "convert a profile image into %s", names);
}

const struct mp_command mp_command_convert = {
    .name = "convert",
    .run = mp_cmd_convert,
    .help = mp_help_convert,
    .describe = describe_convert,
};
