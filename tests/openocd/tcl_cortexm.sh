#!/usr/bin/env bash
# tcl_cortexm.sh ELF WORKDIR - the path of a board user who drives
# OpenOCD's Tcl port: the real OpenOCD 0.12 with a cortex_m target, over
# JTAG to the dap_fixture (a Cortex-M debug interface on firmware running
# under QEMU):
#   mcuprof pull --openocd             exactly the arcs of the semihosting dump
#   pull --openocd --halt              the same; OpenOCD halts the core and
#                                      mcuprof resumes it
#   pull --openocd --interval --count  the sum of three drained pulls
#   reset run (OpenOCD)                a pull sees the firmware started over
#   pull --openocd --reset             drains: a later pull finds the tables empty
# (mcuprof ctl and mcuprof.tcl on the same target: tcl_ctl.sh; reset halt
# and a core the user halted: tcl_halted.sh)
# After every command the core runs (or stays halted, where the user
# halted it) and no freeze is held.
# OCD_BOARD: the firmware's board. Tools from the environment: MCUPROF,
# ARCS_EQUAL, OPENOCD, OPENOCD_CFG (a cortex_m target), DAP_FIXTURE.
set -euo pipefail
test_name=openocd.tcl_cortexm.${OCD_BOARD:-mps2-an385}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
# shellcheck source=cortexm_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/cortexm_lib.sh"
: "${ARCS_EQUAL:?}"
start_cortexm_path tcl "$1" "$2"
expect_left_running "openocd's init"

# 1. a plain pull: frozen while the core runs, exact
pull live -o "$work/live.gmon"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/live.img" || fail "pull --openocd: arcs differ from the dump"
expect_left_running "pull --openocd"
echo "ok   pull --openocd: the dump's arcs"

# 2. --halt: OpenOCD halts the cortex_m, mcuprof resumes it
halts=$(grep -c "halted due to debug-request" "$work/openocd_server.log" || true)
pull halted --halt
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/halted.img" || fail "pull --openocd --halt: arcs differ from the dump"
[ "$(grep -c "halted due to debug-request" "$work/openocd_server.log" || true)" -gt "$halts" ] ||
    { cat "$work/openocd_server.log" >&2; fail "pull --openocd --halt: OpenOCD never halted the core"; }
expect_left_running "pull --openocd --halt"
echo "ok   pull --openocd --halt: halted by OpenOCD, the dump's arcs, resumed"

# 3. --interval: three pulls, each drained
pull sum --interval 0.2 --count 3
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/sum.img" || fail "pull --openocd --interval: the sum's arcs differ from the dump"
[ "$(val "$work/sum.img" samples_taken)" -gt "$(val "$work/halted.img" samples_taken)" ] ||
    fail "pull --openocd --interval: the sum has fewer samples than one pull before"
[ "$(image_word 196)" = 3 ] && [ "$(image_word 32)" = 0 ] ||
    fail "pull --openocd --interval --count 3: generation $(image_word 196), $(image_word 32) arcs on the target"
expect_left_running "pull --openocd --interval"
echo "ok   pull --openocd --interval 0.2 --count 3: the dump's arcs, $(val "$work/sum.img" samples_taken) samples"

# 4. OpenOCD's reset run: the firmware starts over; a drain empties it
n=$(readies)
ocd_tcl "reset run" >"$work/reset_run.txt"
wait_restart "$n" "reset run"
expect_left_running "reset run"
pull fresh --reset
[ "$(val "$work/fresh.img" generation)" = 0 ] || fail "after reset run: generation $(val "$work/fresh.img" generation)"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/fresh.img" || fail "after reset run: arcs differ from the dump"
expect_left_running "pull --openocd --reset"
pull drained
[ "$(val "$work/drained.img" arcs_used)" = 0 ] && [ "$(val "$work/drained.img" generation)" = 1 ] ||
    fail "pull --openocd --reset did not drain"
echo "ok   reset run: generation 0 and the fresh run's arcs; pull --openocd --reset drained them"

echo "$test_name: all checks passed"
