#!/usr/bin/env bash
# gdb_server.sh ELF WORKDIR - the path of a board user who connects to
# OpenOCD's GDB server: the real OpenOCD 0.12 with a cortex_m target, over
# JTAG to the dap_fixture (a Cortex-M debug interface on firmware running
# under QEMU), its GDB server on a free port:
#   mcuprof pull --gdb            exactly the arcs of the semihosting dump
#   pull --gdb --halt             the same, the core stopped for the read
#   pull --gdb --interval --count the sum of three drained pulls
#   monitor reset run (gdb)       a pull sees the firmware started over:
#                                 generation 0, the arcs of its fresh run
#   pull --gdb --reset            drains: a later pull finds the tables empty
#   monitor reset halt (gdb)      the core stays halted at the reset vector;
#                                 pull --gdb lets it run and says the
#                                 firmware restarted; the next pull sees it
# (mcuprof ctl and the GDB script on the same server: gdb_ctl.sh)
# OpenOCD halts the core when a GDB client attaches ("halt" on gdb-attach)
# and leaves it as it is when the client goes: after every mcuprof command
# the core runs and no freeze is held (checked through the Tcl port).
# OCD_BOARD: the firmware's board. Tools from the environment: MCUPROF,
# ARCS_EQUAL, OPENOCD, OPENOCD_CFG (a cortex_m target), DAP_FIXTURE, GDB.
set -euo pipefail
test_name=openocd.gdb_server.${OCD_BOARD:-mps2-an385}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
# shellcheck source=cortexm_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/cortexm_lib.sh"
: "${ARCS_EQUAL:?}" "${GDB:?}"
start_cortexm_path gdb "$1" "$2"
expect_left_running "openocd's init"

# 1. a plain pull: frozen, exact; gmon.out with it
pull live -o "$work/live.gmon"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/live.img" || fail "pull --gdb: arcs differ from the dump"
"$MCUPROF" convert "$work/mcuprof.img" -o "$work/dump.gmon" 2>/dev/null
[ "$(val "$work/live.gmon" total_calls)" = "$(val "$work/dump.gmon" total_calls)" ] ||
    fail "pull --gdb: gmon.out has $(val "$work/live.gmon" total_calls) calls, the dump $(val "$work/dump.gmon" total_calls)"
expect_left_running "pull --gdb"
echo "ok   pull --gdb: the dump's arcs, $(val "$work/live.img" samples_taken) samples"

# 2. --halt: the core stopped for the read, then let run
pull halted --halt
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/halted.img" || fail "pull --gdb --halt: arcs differ from the dump"
[ "$(val "$work/halted.img" samples_taken)" -gt "$(val "$work/live.img" samples_taken)" ] ||
    fail "pull --gdb --halt: no samples since the last pull"
expect_left_running "pull --gdb --halt"
echo "ok   pull --gdb --halt"

# 3. --interval: three pulls, each drained; the first holds every arc
pull sum --interval 0.2 --count 3
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/sum.img" || fail "pull --gdb --interval: the sum's arcs differ from the dump"
[ "$(val "$work/sum.img" samples_taken)" -gt "$(val "$work/halted.img" samples_taken)" ] ||
    fail "pull --gdb --interval: the sum has $(val "$work/sum.img" samples_taken) samples, fewer than one pull before"
expect_left_running "pull --gdb --interval"
gen=$(image_word 196)
[ "$gen" = 3 ] || fail "pull --gdb --interval --count 3: generation $gen on the target, not 3"
[ "$(image_word 32)" = 0 ] || fail "pull --gdb --interval: $(image_word 32) arcs left on the target"
echo "ok   pull --gdb --interval 0.2 --count 3: the dump's arcs, $(val "$work/sum.img" samples_taken) samples, generation 3"

# 4. monitor reset run: the firmware starts over; a drain then empties it
n=$(readies)
g reset_run "monitor reset run" detach
wait_restart "$n" "monitor reset run"
expect_left_running "monitor reset run"
pull fresh --reset
[ "$(val "$work/fresh.img" generation)" = 0 ] || fail "after monitor reset run: generation $(val "$work/fresh.img" generation), not 0"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/fresh.img" || fail "after monitor reset run: arcs differ from the dump"
expect_left_running "pull --gdb --reset"
pull drained
[ "$(val "$work/drained.img" arcs_used)" = 0 ] && [ "$(val "$work/drained.img" generation)" = 1 ] &&
    [ "$(val "$work/drained.img" total_calls)" = 0 ] ||
    fail "pull --gdb --reset did not drain: $(val "$work/drained.img" arcs_used) arcs, generation $(val "$work/drained.img" generation)"
expect_left_running "pull --gdb after the drain"
echo "ok   monitor reset run: generation 0 and the fresh run's arcs; pull --gdb --reset drained them"

# 7. monitor reset halt: the core waits at the reset vector. A GDB client
# cannot tell a core halted so from one its attach halted: pull --gdb lets
# it run for the sampler to answer its freeze, the firmware starts over
# and clears its image, and the pull says so (one line, nothing written)
# instead of waiting for an answer that cannot come.
n=$(readies)
g reset_halt "monitor reset halt" detach
expect_left_halted "monitor reset halt, then detach"
rc=0
"$MCUPROF" pull --gdb "$ep" --elf "$elf" --timeout "$to" -o "$work/at_reset.gmon" 2>"$work/at_reset.err" || rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <"$work/at_reset.err")" = 1 ] &&
    grep -q "^mcuprof: error: $ep: freeze_request was cleared (it holds 0x0, not this pull's 0x[0-9a-f]*) before the firmware acknowledged it: the firmware restarted meanwhile" "$work/at_reset.err" ||
    { cat "$work/at_reset.err" >&2; fail "pull --gdb after monitor reset halt: exit $rc, not the one line on the restart"; }
[ ! -e "$work/at_reset.gmon" ] || fail "pull --gdb after monitor reset halt: output written"
echo "     pull --gdb after monitor reset halt: $(cat "$work/at_reset.err")"
wait_restart "$n" "pull --gdb after monitor reset halt"
expect_left_running "pull --gdb after monitor reset halt"
pull restarted
[ "$(val "$work/restarted.img" generation)" = 0 ] || fail "after monitor reset halt: generation $(val "$work/restarted.img" generation)"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/restarted.img" || fail "after monitor reset halt: arcs differ from the dump"
expect_left_running "pull --gdb after the restart"
echo "ok   monitor reset halt: the core waits at the reset vector; pull --gdb lets it run and says the firmware restarted; the next pull sees the fresh run"
echo "$test_name: all checks passed"
