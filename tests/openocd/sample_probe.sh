#!/usr/bin/env bash
# sample_probe.sh BOARD ELF WORKDIR - `mcuprof sample` through OpenOCD's
# Tcl port on its cortex_m target over the fixture's Cortex-M
# (probe_split.elf under QEMU: thread_work 50 %, masked_work 20 % with
# interrupts masked, an interrupt the target's sampler cannot preempt
# 30 %):
#   - --method pcsr reads DWT_PCSR while the core runs: the shares within
#     3 points plus 3 standard errors of the truth, the arcs of the window
#     merged, no read without a PC (the core never stops);
#   - --method auto takes DWT_PCSR where it is implemented, and halts
#     (halt, reg pc, resume) on a core without one (dap_fixture
#     --no-pcsr), saying why in the summary.
# Tools from the environment: OPENOCD, OPENOCD_CFG (the cortex_m one),
# DAP_FIXTURE, MCUPROF, GPROF, GPROF_CHECK.
set -euo pipefail
board=$1
elf=$2
work=$3
test_name=openocd.sample.$board
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# shellcheck source=../sample/truth.sh
. "$(dirname "${BASH_SOURCE[0]}")/../sample/truth.sh"
: "${GPROF:?}" "${GPROF_CHECK:?}"
N=300

rm -rf "$work"
mkdir -p "$work"
MCUPROF_QEMU_TIMEOUT=170 # windows of hundreds of samples over bit-banged JTAG, on a loaded host
start_qemu "$board" "$elf" "$work" "probe_split: ready"
start_fixture
start_ocd_server
ocd_ep=127.0.0.1:$tcl_port

run_sample() { # NAME ARGS...
    local name=$1
    shift
    # --timeout 30: the freeze waits for a tick of the firmware's 10 Hz
    # sampler, and the fixture stops the core for every burst of the
    # handshake's polling: on a loaded host that takes seconds
    "$MCUPROF" sample --openocd "$ocd_ep" --elf "$elf" --timeout 30 -o "$work/$name.gmon" "$@" 2>"$work/$name.err" ||
        { cat "$work/$name.err" "$work/openocd_server.log" >&2; fail "sample $name failed"; }
    grep '^mcuprof: sample: [0-9]* samples' "$work/$name.err"
    summary=$(grep '^mcuprof: sample: [0-9]* samples' "$work/$name.err") || fail "$name: no summary line"
}

# --batch 1: the fixture stops the core for every burst of JTAG traffic
# (tests/openocd/fixture/target_core.c), so reads back to back see one
# PC; a probe's reads of DWT_PCSR on a board stop nothing
run_sample pcsr --method pcsr --batch 1 --samples $N --duration 60
grep -q "method pcsr (asked for; 1 read an exchange" <<<"$summary" || fail "pcsr: $summary"
grep -q "the core never stopped); 0 reads without a PC" <<<"$summary" || fail "pcsr: $summary"
grep -q 'exact arcs of the window merged' <<<"$summary" || fail "pcsr: arcs not merged"
"$GPROF" -b -p "$elf" "$work/pcsr.gmon" >"$work/flat.txt"
"$GPROF" -b -q "$elf" "$work/pcsr.gmon" >"$work/graph.txt"
probe_split_shares $N >"$work/expect.txt"
"$GPROF_CHECK" --flat "$work/flat.txt" --graph "$work/graph.txt" --expect "$work/expect.txt" ||
    fail "gprof disagrees with the truth"
# the arcs: ten calls of leaf a round, one round more or less at the edges
rounds=$(awk '$NF == "thread_work" && $1 ~ /^[0-9.]+$/ { print $4 }' "$work/flat.txt")
leaves=$(awk '$NF == "leaf" && $1 ~ /^[0-9.]+$/ { print $4 }' "$work/flat.txt")
[ -n "$rounds" ] && [ -n "$leaves" ] && [ $((leaves - 10 * rounds)) -le 10 ] && [ $((10 * rounds - leaves)) -le 10 ] ||
    fail "leaf called '$leaves' times in '$rounds' rounds"

run_sample auto --batch 1 --samples 64 --duration 60
grep -q "method pcsr (DWT_PCSR is implemented" <<<"$summary" || fail "auto with PCSR: $summary"

start_fixture --no-pcsr
stop_ocd_server
start_ocd_server
ocd_ep=127.0.0.1:$tcl_port
run_sample nopcsr --samples 16 --duration 60
grep -q "method halt (DWT_PCSR reads as 0: not implemented; the core stopped within each exchange" <<<"$summary" ||
    fail "auto without PCSR: $summary"
"$GPROF" -b -p "$elf" "$work/nopcsr.gmon" | grep -q ' thread_work$' || fail "no thread_work in nopcsr.gmon"
echo "$test_name: all checks passed"
