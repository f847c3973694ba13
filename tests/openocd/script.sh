#!/usr/bin/env bash
# script.sh ELF WORKDIR - hosttools/openocd/mcuprof.tcl in the real OpenOCD
# over JTAG (remote_bitbang to the dap_fixture fixture) while the firmware
# runs under QEMU: mcuprof_dump and mcuprof_dump_symbols take frozen
# snapshots that hold exactly the arcs of the firmware's semihosting dump,
# the core runs on and is released.
# Tools from the environment: MCUPROF, ARCS_EQUAL, OPENOCD, OPENOCD_CFG, DAP_FIXTURE.
set -euo pipefail
test_name=openocd.jtag.script
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
: "${ARCS_EQUAL:?}"
start_target "$1" "$2"
elf=$1

sym() { arm-none-eabi-nm "$elf" 2>/dev/null | awk -v s="$1" '$3 == s { print "0x" $1 }'; }
start=0x20000010
end=0x20001460
if command -v arm-none-eabi-nm >/dev/null; then
    start=$(sym __mcuprof_start)
    end=$(sym __mcuprof_end)
fi

ocd -c "source $mcuprof_tcl" \
    -c "echo \"STATE [[target current] curstate]\"" \
    -c "mcuprof_dump $work/a.img $start" \
    -c "mcuprof_dump_symbols $work/b.img $start $end" \
    -c "echo \"AFTER [read_memory [expr {$start + 188}] 32 2]\"" ||
    { cat "$work/openocd.log" >&2; fail "openocd failed"; }
expect_in "$work/openocd.log" "STATE running"
# the size from the header, in decimal (read_memory's hex used to leak out)
size=$(stat -c %s "$work/mcuprof.img")
expect_in "$work/openocd.log" "mcuprof: $size bytes of profile image written to $work/a.img (frozen snapshot)"
expect_in "$work/openocd.log" "written to $work/b.img (frozen snapshot)"
# freeze_request and freeze_ack both back to 0: released
expect_in "$work/openocd.log" "AFTER 0x0 0x0"

for img in a b; do
    "$MCUPROF" convert "$work/$img.img" -o "$work/$img.gmon" || fail "convert $img.img failed"
    "$ARCS_EQUAL" "$work/mcuprof.img" "$work/$img.img" || fail "$img.img: arcs differ from the dump"
done
taken() { info_json "$1" .counters.samples_taken; }
[ "$(taken "$work/b.img")" -gt "$(taken "$work/mcuprof.img")" ] || fail "the core did not run on"
echo "$test_name: all checks passed"
