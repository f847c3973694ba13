/*
 * bench_profile_sum.c - how long summing drained snapshots takes, table
 * by table, on images whose keyed tables hold N entries:
 *
 *   bench_profile_sum [N [ROUNDS]]     (default 200000 entries, 2 rounds)
 *
 * Each line: the table, N, the processor time of mp_sum_add over ROUNDS
 * snapshots of an image holding that table alone, and of mp_sum_image
 * (processor time: the host's other load does not count, its speed
 * does). Not a test: bench/RESULTS.md quotes it.
 */
/* clock_gettime is POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "big_snapshot.h"
#include "diag.h"
#include "profile_sum.h"

static double cpu_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        unsigned tables;
    } cases[] = {{"arcs", BS_ARCS},   {"bins", BS_BINS}, {"contexts", BS_CONTEXTS}, {"tasks", BS_TASKS},
                 {"late", BS_LATE},   {"paths", BS_PATHS}, {"all", BS_ALL}};
    uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 200000;
    unsigned rounds = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 2, c, r;

    mp_diag_quiet(1);
    for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct mp_sum s;
        struct mp_image img;
        uint8_t *buf, *data = NULL;
        double add = 0, t0;
        size_t len;
        int failed = 0;

        mp_sum_init(&s);
        for (r = 0; r < rounds && !failed; r++) {
            if (!(buf = bs_build(n, cases[c].tables, r, &img))) {
                fprintf(stderr, "bench_profile_sum: cannot build the %s image: %s\n", cases[c].name,
                        mp_last_error());
                return 1;
            }
            t0 = cpu_s();
            failed = mp_sum_add(&s, &img) < 0;
            add += cpu_s() - t0;
            free(buf);
        }
        t0 = cpu_s();
        failed = failed || mp_sum_image(&s, &data, &len) < 0;
        printf("%-9s %7" PRIu32 " entries x %u snapshots: add %8.3f s, image %7.3f s%s\n", cases[c].name,
               cases[c].tables == BS_ARCS && n > BS_MAX_ARCS ? BS_MAX_ARCS : n, rounds, add, cpu_s() - t0,
               failed ? " (failed)" : "");
        fflush(stdout);
        free(data);
        mp_sum_free(&s);
    }
    return 0;
}
