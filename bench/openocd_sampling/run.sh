#!/usr/bin/env bash
# bench/openocd_sampling/run.sh [BOARD [SECONDS]] - what PC sampling through
# the probe costs on the test set-up: the real OpenOCD 0.12's cortex_m
# target over JTAG (remote_bitbang) to the dap_fixture's Cortex-M
# (tests/openocd/fixture/), the firmware under QEMU. Prints:
#   - OpenOCD's `profile` through DWT_PCSR: samples over the command's
#     whole duration (OpenOCD reads PCSR in batches of 1024 and looks at
#     the clock between them), samples/s, time per sample: one PCSR read
#     (the fixture stops the core, reads its pc through the gdbstub and
#     lets it run);
#   - OpenOCD's `profile` by halting (dap_fixture --no-pcsr, a core without
#     PCSR): the same, and the time per sample less OpenOCD's own 10 ms
#     sleep after each resume: one halt, register read and resume.
# Wall-clock on this host (the load average is printed): a measure of the
# test set-up, not of a probe. BOARD: mps2-an385 (default) or microbit.
# Uses the test build in ${MCUPROF_BUILD_DIR:-build}.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
board=${1:-mps2-an385}
seconds=${2:-5}
test_name=openocd_sampling
# shellcheck source=../lib/fixture.sh
. "$root/bench/lib/fixture.sh"
elf=$build/tests/e2e/fw-$board/pull_idle.elf
bench_need "$elf"
bench_start "$build/openocd-sampling-bench" "pull_idle: ready"
echo "$board, load average $(cut -d' ' -f1-3 /proc/loadavg)"

rate() { # LOG LABEL SLEEP_MS
    local n ms
    n=$(sed -n 's/.*Profiling completed\. \([0-9]*\) samples\..*/\1/p' "$1")
    ms=$(awk '$1 == "MS" { print $2 }' "$1")
    [ -n "$n" ] && [ -n "$ms" ] || { cat "$1" >&2; fail "$2: no samples"; }
    awk -v n="$n" -v ms="$ms" -v label="$2" -v sleep_ms="$3" 'BEGIN {
        printf "%s: %d samples in %d ms, %.1f samples/s, %.2f ms per sample", label, n, ms, n * 1000 / ms, ms / n
        if (sleep_ms) printf " (%.2f ms without OpenOCD'\''s %d ms sleep)", ms / n - sleep_ms, sleep_ms
        printf "\n" }'
}
profile() { # FILE: OpenOCD's profile, timed whole (its last batch may overrun SECONDS)
    ocd -c "set t0 [ms]; profile $seconds $1; echo \"MS [expr {[ms] - \$t0}]\""
}
profile "$work/pcsr.gmon"
rate "$work/openocd.log" "profile through DWT_PCSR" 0
start_fixture --no-pcsr
profile "$work/halt.gmon"
rate "$work/openocd.log" "profile by halting" 10
