# truth.sh - what probe_split.elf (tests/e2e/firmware/probe_split.c) does,
# for the tests that sample it (sourced):
#   probe_split_shares N   gprof_check's share lines: thread_work 50 %,
#                          masked_work 20 %, board_swi_handler 30 %, each
#                          within 3 points plus 3 standard errors of N
#                          samples (the 3 points: the code around the
#                          work, the loop, the interrupt's way in)
probe_split_shares() { # N
    local f p
    for f in thread_work:0.5 masked_work:0.2 board_swi_handler:0.3; do
        p=${f#*:}
        awk -v f="${f%%:*}" -v p="$p" -v n="$1" \
            'BEGIN { printf "share %s %g %.1f\n", f, 100 * p, 3 + 300 * sqrt(p * (1 - p) / n) }'
    done
}
