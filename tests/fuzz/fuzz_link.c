/*
 * fuzz_link.c - the scenarios the fuzz targets of the links run: `pull`
 * (freezing or halting, with and without the drain, and summing two pulls
 * with --interval) and every `ctl` operation, as the tool runs them, over
 * a connection whose answers are the fuzzer's input (mem_net.c).
 */
#include "fuzz_link.h"

#include <stdio.h>

#include "fuzz_common.h"
#include "mem_net.h"

/* What follows the transport option: OUT stands for the output file. */
static const char *const scenarios[][8] = {
    {"pull", "--image", "OUT", NULL},
    {"pull", "--halt", "--image", "OUT", NULL},
    {"pull", "--reset", "--image", "OUT", NULL},
    {"pull", "--halt", "--reset", "--image", "OUT", NULL},
    {"pull", "--interval", "0.01", "--count", "2", "--image", "OUT", NULL},
    {"ctl", "status", NULL},
    {"ctl", "start", NULL},
    {"ctl", "stop", NULL},
    {"ctl", "reset", NULL},
};

#define NSCENARIOS (sizeof(scenarios) / sizeof(scenarios[0]))

unsigned fuzz_link_scenarios(void) { return NSCENARIOS; }

int fuzz_link_run(const char *transport, unsigned scenario)
{
    const char *const *s = scenarios[scenario % NSCENARIOS];
    const char *argv[16];
    char option[32], address[24];
    unsigned n = 0, i;

    snprintf(option, sizeof(option), "--%s", transport);
    snprintf(address, sizeof(address), "0x%x", FUZZ_LINK_IMAGE_ADDR);
    argv[n++] = "mcuprof";
    argv[n++] = s[0];
    for (i = 1; s[i] && s[0][0] == 'c' && i < 2; i++)
        argv[n++] = s[i]; /* ctl's operation comes first */
    argv[n++] = option;
    argv[n++] = "localhost:1";
    argv[n++] = "--address";
    argv[n++] = address;
    for (; s[i]; i++)
        argv[n++] = s[i][0] == 'O' ? fuzz_out_path() : s[i];
    argv[n] = NULL;
    return fuzz_tool(argv);
}

int fuzz_link_input(const char *transport, const uint8_t *data, size_t size)
{
    fuzz_begin();
    if (size > 0) {
        fuzz_net_feed(data + 1, size - 1);
        fuzz_link_run(transport, data[0]);
    }
    fuzz_end();
    return 0;
}
