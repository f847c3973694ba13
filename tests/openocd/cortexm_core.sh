#!/usr/bin/env bash
# cortexm_core.sh BOARD ELF WORKDIR - the real OpenOCD's plain cortex_m
# target (fixture/openocd-jtag-cortexm.cfg) over JTAG to the dap_fixture,
# whose Cortex-M debug interface is backed by the firmware under QEMU:
#   examine   the core QEMU models, by name, and its CPUID read through the AP
#   halt      pc inside the firmware's code; pc, sp and xPSR as QEMU's
#             gdbstub gave them for that stop (the fixture's --trace)
#   reset halt  pc at the reset vector, sp the initial stack pointer, both
#             from the ELF's vector table; xPSR: Thumb, thread mode
#   step      from there, pc advances by the first instruction's length
#   resume    the sampler keeps counting (samples_taken, read with mdw)
#   bp hw     a hardware breakpoint on SysTick_Handler halts there, also
#             when it is hit while OpenOCD reads memory and does not poll
#   bp        a software breakpoint there (OpenOCD writes BKPT): the
#             core halts at it, the BKPT reads back, then the instruction
#   wp        a write watchpoint on the counter halts after each store
#             (DWT_FUNCTION 6): at two hits the counter is one apart
#   reset run the firmware starts over: with a hardware breakpoint on its
#             work() it stops there, its counter 0 again (mcuprof_init has
#             just run); it prints its ready line again
#   reset init  halted at the reset vector too
#   SRST      with reset_config srst_only, reset halt through the wire's
#             reset line: pc at the reset vector
# Tools from the environment: OPENOCD, OPENOCD_CFG (the cortexm config),
# DAP_FIXTURE, MCUPROF; arm-none-eabi-objdump.
set -euo pipefail
board=$1
elf=$2
test_name=openocd.cortexm.core.$board
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$dir/lib.sh"
# shellcheck source=cortexm_lib.sh
. "$dir/cortexm_lib.sh"
start_cortexm "$board" "$elf" "$3" --trace

case $board in
mps2-an385) core=Cortex-M3 ;;
microbit) core=Cortex-M0 ;;
*) fail "no expected core for board $board" ;;
esac
hex() { printf '0x%08x' "$(($1))"; }
# The value OpenOCD printed for register NAME after the text MARK.
reg_after() { # MARK NAME
    sed -n "/$1/,\$p" "$log" | grep -m1 "^$2 (/32): " | sed 's/.*: //'
}

# The firmware's code and its vector table, from the ELF.
read -r text_lo text_hi < <(arm-none-eabi-objdump -h "$elf" |
    awk '$2 == ".text" { printf "0x%s 0x%s\n", $4, $3 }')
text_hi=$(hex "$text_lo + $text_hi")
vectors=$(arm-none-eabi-objdump -s -j .vectors "$elf" 2>/dev/null | awk '/^ 0000 /{print $2, $3; exit}')
[ -n "$vectors" ] || fail "no .vectors section in $elf"
le32() { echo "0x${1:6:2}${1:4:2}${1:2:2}${1:0:2}"; }
initial_sp=$(hex "$(le32 "${vectors% *}")")
reset_pc=$(hex "$(le32 "${vectors#* }") & ~1")
systick=$(hex "0x$(arm-none-eabi-nm "$elf" | awk '$3 == "SysTick_Handler" { print $1 }')")
# pull_idle's work(): main calls it right after mcuprof_init (which zeroes
# the image) and the sampler's start
work_fn=$(hex "0x$(arm-none-eabi-nm "$elf" | awk '$3 == "work" { print $1 }')")
# First instruction of the reset handler: 2 bytes, or 4 for a 32-bit Thumb one.
first=$(arm-none-eabi-objdump -d --start-address="$reset_pc" --stop-address=$((reset_pc + 4)) "$elf" |
    awk -F'\t' '/^ *[0-9a-f]+:/ { print $2; exit }')
# shellcheck disable=SC2086 # objdump prints a 32-bit one as two halfwords
step_len=$(($(echo $first | wc -w) * 2))
cpuid=$(case $core in Cortex-M3) echo 0x410fc231 ;; Cortex-M0) echo 0x410cc200 ;; esac)

ocd -c "echo \"CPUID [read_memory 0xe000ed00 32 1]\"" \
    -c "halt" -c "echo MARK_HALT" -c "reg pc" -c "reg sp" -c "reg xPSR" \
    -c "reset halt" -c "echo MARK_RESET" -c "reg pc" -c "reg sp" -c "reg xPSR" \
    -c "step" -c "echo MARK_STEP" -c "reg pc" \
    -c "resume" -c "sleep 200" -c "echo \"COUNT1 [read_memory $counter 32 1]\"" \
    -c "sleep 200" -c "echo \"COUNT2 [read_memory $counter 32 1]\"" \
    -c "bp $systick 2 hw" -c "poll off" -c "for {set i 0} {\$i < 40} {incr i} {read_memory $counter 32 1}" \
    -c "sleep 50" -c "poll on" -c "wait_halt 2000" -c "echo MARK_BP" -c "reg pc" -c "rbp $systick" \
    -c "echo \"ORIG [read_memory $systick 16 1]\"" -c "bp $systick 2" -c "resume" -c "wait_halt 2000" \
    -c "echo MARK_SOFT" -c "reg pc" -c "echo \"SHADOW [read_memory $systick 16 1]\"" -c "rbp $systick" \
    -c "echo \"RESTORED [read_memory $systick 16 1]\"" \
    -c "wp $counter 4 w" -c "resume" -c "wait_halt 2000" -c "echo \"WATCH1 [read_memory $counter 32 1]\"" \
    -c "resume" -c "wait_halt 2000" -c "echo \"WATCH2 [read_memory $counter 32 1]\"" -c "rwp $counter" \
    -c "resume" -c "sleep 200" -c "echo \"COUNT3 [read_memory $counter 32 1]\"" \
    -c "bp $work_fn 2 hw" -c "reset run" -c "wait_halt 2000" -c "echo MARK_WORK" -c "reg pc" \
    -c "echo \"COUNT4 [read_memory $counter 32 1]\"" -c "rbp $work_fn" -c "resume" ||
    { cat "$log" >&2; fail "openocd failed"; }

expect_in "$log" "[mcuprof.cpu] $core r"
expect_in "$log" "processor detected"
expect_in "$log" "CPUID $cpuid"
# halt: in the firmware's code, and exactly what the gdbstub said
pc=$(reg_after MARK_HALT pc)
[ $((pc)) -ge $((text_lo)) ] && [ $((pc)) -lt $((text_hi)) ] ||
    fail "halt: pc $pc outside the firmware's code [$text_lo, $text_hi)"
for r in pc:pc sp:sp xPSR:xpsr; do
    v=$(reg_after MARK_HALT "${r%%:*}")
    grep -q "gdbstub ${r#*:} = $v\$" "$work/dap_fixture.log" ||
        { grep gdbstub "$work/dap_fixture.log" >&2; fail "halt: OpenOCD's ${r%%:*} $v is not what the gdbstub gave"; }
done
echo "halt: pc $pc sp $(reg_after MARK_HALT sp) xPSR $(reg_after MARK_HALT xPSR), as the gdbstub gave them"
# reset halt: the vector table's values
[ "$(reg_after MARK_RESET pc)" = "$reset_pc" ] || fail "reset halt: pc $(reg_after MARK_RESET pc), not the reset vector $reset_pc"
[ "$(reg_after MARK_RESET sp)" = "$initial_sp" ] || fail "reset halt: sp $(reg_after MARK_RESET sp), not $initial_sp"
# the Thumb bit, no exception (the flags are UNKNOWN after a reset)
[ $(($(reg_after MARK_RESET xPSR) & 0x010001ff)) = $((0x01000000)) ] || fail "reset halt: xPSR $(reg_after MARK_RESET xPSR)"
# step: one instruction
want=$(hex "$reset_pc + $step_len")
[ "$(reg_after MARK_STEP pc)" = "$want" ] || fail "step: pc $(reg_after MARK_STEP pc), expected $want ('$first')"
echo "reset halt: pc $reset_pc sp $initial_sp; step: pc $want"
# resume: the sampler counts on
c1=$(sed -n 's/^COUNT1 //p' "$log"); c2=$(sed -n 's/^COUNT2 //p' "$log")
c3=$(sed -n 's/^COUNT3 //p' "$log"); c4=$(sed -n 's/^COUNT4 //p' "$log")
[ $((c2)) -gt $((c1)) ] || fail "resume: samples_taken $c1 then $c2, not counting"
# the hardware breakpoint
expect_in "$log" "halted due to breakpoint"
[ "$(reg_after MARK_BP pc)" = "$systick" ] || fail "bp: pc $(reg_after MARK_BP pc), not SysTick_Handler $systick"
# the software breakpoint: OpenOCD's BKPT reads back while it is set, the
# instruction after; the core stopped at it and did not fault
[ "$(reg_after MARK_SOFT pc)" = "$systick" ] || fail "soft bp: pc $(reg_after MARK_SOFT pc), not $systick"
[ "$(sed -n 's/^SHADOW //p' "$log")" = 0xbe11 ] || fail "soft bp: reads $(sed -n 's/^SHADOW //p' "$log"), not OpenOCD's BKPT 0xbe11"
[ "$(sed -n 's/^RESTORED //p' "$log")" = "$(sed -n 's/^ORIG //p' "$log")" ] || fail "soft bp: the instruction is not back"
# the write watchpoint: halted after each store, the counter one more
w1=$(sed -n 's/^WATCH1 //p' "$log"); w2=$(sed -n 's/^WATCH2 //p' "$log")
[ "$(grep -c "halted due to watchpoint" "$log")" = 2 ] || fail "wp: not two watchpoint halts"
[ $((w2)) = $((w1 + 1)) ] || fail "wp: samples_taken $w1 then $w2 at two hits, not one store apart"
# reset run: the firmware starts over, from its reset vector through
# mcuprof_init to work(), its image zeroed
[ "$(reg_after MARK_WORK pc)" = "$work_fn" ] || fail "reset run: no stop at work() $work_fn ($(reg_after MARK_WORK pc))"
[ $((c3)) -gt 0 ] && [ $((c4)) = 0 ] || fail "reset run: samples_taken $c3 before, $c4 at work(): no restart"
# once at power-on, once after each of the two resets (the last one
# printed after OpenOCD resumed the core and ended: waited for)
wait_restart 2 "reset run"
[ "$(readies)" = 3 ] || fail "reset run: the firmware started $(readies) times, not 3"
echo "resume: samples_taken $c1 -> $c2; bp at $systick; wp: $w1, $w2; reset run: $c3, then $c4 at work()"

# The reset line of the wire (remote_bitbang's SRST) instead of AIRCR.
ocd -c "reset init" -c "echo MARK_INIT" -c "reg pc" \
    -c "reset_config srst_only srst_nogate" -c "reset halt" -c "echo MARK_SRST" -c "reg pc" -c "resume" ||
    { cat "$log" >&2; fail "openocd failed (SRST)"; }
[ "$(reg_after MARK_INIT pc)" = "$reset_pc" ] || fail "reset init: pc $(reg_after MARK_INIT pc), not $reset_pc"
[ "$(reg_after MARK_SRST pc)" = "$reset_pc" ] || fail "SRST reset halt: pc $(reg_after MARK_SRST pc), not $reset_pc"
! sed -n '/MARK_INIT/,$p' "$log" | grep -q "Only resetting the Cortex-M core\|SYSRESETREQ instead" ||
    fail "SRST reset halt: OpenOCD used AIRCR"
echo "reset init, and reset halt through SRST: at $reset_pc"

echo "$test_name: all checks passed"
