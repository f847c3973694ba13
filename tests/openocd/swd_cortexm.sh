#!/usr/bin/env bash
# swd_cortexm.sh BOARD ELF WORKDIR - OpenOCD's plain cortex_m target
# (fixture/openocd-swd-cortexm.cfg) over SWD, through its buspirate driver
# on the pty of `dap_fixture --buspirate`, whose Cortex-M debug interface
# is backed by the firmware under QEMU on BOARD:
#   examine  the core QEMU models, by name, and its CPUID read through the AP
#   halt     pc inside the firmware's code, as QEMU's gdbstub gave it for
#            that stop (the fixture's --trace)
#   resume   the sampler keeps counting (samples_taken, read with
#            read_memory while the core runs)
# Tools from the environment: OPENOCD, OPENOCD_CFG (the SWD cortexm
# config), DAP_FIXTURE, MCUPROF; arm-none-eabi-objdump.
set -euo pipefail
board=$1
elf=$2
test_name=openocd.swd.cortexm.$board
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$dir/lib.sh"
# shellcheck source=cortexm_lib.sh
. "$dir/cortexm_lib.sh"
start_cortexm "$board" "$elf" "$3" --buspirate --trace

case $board in
mps2-an385) core=Cortex-M3 cpuid=0x410fc231 ;;
microbit) core=Cortex-M0 cpuid=0x410cc200 ;;
*) fail "no expected core for board $board" ;;
esac
read -r text_lo text_size < <(arm-none-eabi-objdump -h "$elf" | awk '$2 == ".text" { printf "0x%s 0x%s\n", $4, $3 }')
text_hi=$((text_lo + text_size))

ocd -c "echo \"CPUID [read_memory 0xe000ed00 32 1]\"" \
    -c "halt" -c "echo \"STATE [mcuprof.cpu curstate]\"" -c "echo MARK_HALT" -c "reg pc" \
    -c "resume" -c "sleep 300" -c "echo \"COUNT1 [read_memory $counter 32 1]\"" \
    -c "sleep 300" -c "echo \"COUNT2 [read_memory $counter 32 1]\"" \
    -c "echo \"STATE [mcuprof.cpu curstate]\"" ||
    { cat "$log" >&2; fail "openocd failed"; }

expect_in "$log" "SWD DPIDR 0x2ba01477"
expect_in "$log" "[mcuprof.cpu] $core r"
expect_in "$log" "CPUID $cpuid"
expect_in "$log" "STATE halted"
pc=$(sed -n '/MARK_HALT/,$p' "$log" | grep -m1 '^pc (/32): ' | sed 's/.*: //')
[ -n "$pc" ] && [ $((pc)) -ge $((text_lo)) ] && [ $((pc)) -lt $text_hi ] ||
    fail "halt: pc '$pc' outside the firmware's code"
grep -q "gdbstub pc = $pc\$" "$work/dap_fixture.log" ||
    { grep gdbstub "$work/dap_fixture.log" >&2; fail "halt: OpenOCD's pc $pc is not what the gdbstub gave"; }
expect_in "$log" "STATE running"
c1=$(sed -n 's/^COUNT1 //p' "$log")
c2=$(sed -n 's/^COUNT2 //p' "$log")
[ $((c2)) -gt $((c1)) ] || fail "resume: samples_taken $c1 then $c2, not counting"
echo "examine: $core; halt: pc $pc, as the gdbstub gave it; resume: samples_taken $c1 -> $c2"
echo "$test_name: all checks passed"
