#!/usr/bin/env bash
# memory.sh ELF WORKDIR - OpenOCD's own memory commands over JTAG to the
# dap_fixture fixture (a MEM-AP on QEMU's memory): a known pattern written with
# write_memory/mww/mwh/mwb reads back exactly with read_memory at 8, 16
# and 32 bits, also across a 1 KB boundary where the AP's TAR stops
# incrementing and OpenOCD must reload it; the firmware's read-only code
# reads back as the ELF holds it.
# Tools from the environment: OPENOCD, OPENOCD_CFG, DAP_FIXTURE, MCUPROF.
set -euo pipefail
test_name=openocd.jtag.memory
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
start_target "$1" "$2"

# Unused RAM of pull_idle (its heap, far above __end, below the stack).
base=0x20100000
# 600 words from 0x20100300: crosses 0x20100400 and 0x20100800.
ocd -c "set w {}; for {set i 0} {\$i < 600} {incr i} {lappend w [expr {(\$i * 2654435761 + 0x1234) & 0xffffffff}]}" \
    -c "write_memory [expr {$base + 0x300}] 32 \$w" \
    -c "set r [read_memory [expr {$base + 0x300}] 32 600]" \
    -c "set bad 0; for {set i 0} {\$i < 600} {incr i} {if {[lindex \$r \$i] != [lindex \$w \$i]} {incr bad}}" \
    -c "echo \"WORDS bad \$bad\"" \
    -c "mww $base 0x11223344; mwh [expr {$base + 4}] 0xa55a; mwh [expr {$base + 6}] 0x0ff0; mwb [expr {$base + 8}] 0xc3; mwb [expr {$base + 9}] 0x3c; mwb [expr {$base + 10}] 0x7e; mwb [expr {$base + 11}] 0x81" \
    -c "echo \"W32 [read_memory $base 32 3]\"" \
    -c "echo \"W16 [read_memory $base 16 6]\"" \
    -c "echo \"W8 [read_memory $base 8 12]\"" \
    -c "echo \"ODD [read_memory [expr {$base + 1}] 8 5]\"" \
    -c "echo \"CODE [read_memory 0 32 2]\"" ||
    { cat "$work/openocd.log" >&2; fail "openocd failed"; }
log=$work/openocd.log
expect_in "$log" "WORDS bad 0"
expect_in "$log" "W32 0x11223344 0xff0a55a 0x817e3cc3"
expect_in "$log" "W16 0x3344 0x1122 0xa55a 0xff0 0x3cc3 0x817e"
expect_in "$log" "W8 0x44 0x33 0x22 0x11 0x5a 0xa5 0xf0 0xf 0xc3 0x3c 0x7e 0x81"
expect_in "$log" "ODD 0x33 0x22 0x11 0x5a 0xa5"
# The vector table: initial SP and reset vector, from the ELF.
if command -v arm-none-eabi-objcopy >/dev/null; then
    arm-none-eabi-objcopy -O binary -j .vectors "$1" "$work/vectors.bin" 2>/dev/null ||
        arm-none-eabi-objcopy -O binary "$1" "$work/vectors.bin"
    read -r sp reset < <(od -An -tx4 -N8 "$work/vectors.bin")
    want=$(printf '0x%x 0x%x' "0x$sp" "0x$reset")
    expect_in "$log" "CODE $want"
fi
echo "$test_name: all checks passed"
