#!/usr/bin/env bash
# tcl_halted.sh ELF WORKDIR - mcuprof and hosttools/openocd/mcuprof.tcl on
# a core OpenOCD holds halted, through the Tcl port of the real OpenOCD
# 0.12 with a cortex_m target, over JTAG to the dap_fixture (a Cortex-M
# debug interface on pull_idle.c running under QEMU):
#   reset halt       the core waits at its reset vector: a pull reads what
#                    RAM holds as it is (no freeze: no sampler runs to
#                    answer one) and leaves the core halted; after
#                    OpenOCD's resume a pull sees the firmware's fresh run
#   halt             pull, pull --halt, ctl status, stop, start and
#                    mcuprof_dump on a core the user halted: exact arcs, no
#                    freeze asked, the core left halted; resume, it runs on
# OCD_BOARD: the firmware's board. Tools from the environment: MCUPROF,
# ARCS_EQUAL, OPENOCD, OPENOCD_CFG (a cortex_m target), DAP_FIXTURE.
set -euo pipefail
test_name=openocd.tcl_halted.${OCD_BOARD:-mps2-an385}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
# shellcheck source=cortexm_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/cortexm_lib.sh"
: "${ARCS_EQUAL:?}"
start_cortexm_path tcl "$1" "$2"

tcl() { # NAME COMMAND: the result in NAME.txt (echo goes to the log)
    ocd_tcl "$2" >"$work/$1.txt"
}

# 1. reset halt: the core waits at the reset vector
n=$(readies)
ocd_tcl "reset halt" >"$work/reset_halt.txt"
expect_left_halted "reset halt"
# what RAM holds at the reset vector (the image of the run before, or
# none yet): read as it is, never frozen, the core left halted
rc=0
"$MCUPROF" pull --openocd "$ep" --elf "$elf" --timeout "$to" --image "$work/at_reset.img" 2>"$work/at_reset.err" || rc=$?
echo "     pull --openocd at the reset vector (exit $rc): $(cat "$work/at_reset.err")"
expect_left_halted "pull --openocd on a core held at the reset vector"
if [ "$rc" = 0 ]; then
    not_frozen "$work/at_reset.img" "pull --openocd at the reset vector"
    expect_in "$work/at_reset.err" "mcuprof: note: $ep: the core is halted: read as it is, without a freeze; it stays halted"
else
    [ "$(wc -l <"$work/at_reset.err")" = 1 ] && grep -q "^mcuprof: error: $ep: " "$work/at_reset.err" ||
        fail "pull --openocd at the reset vector: not one error line naming $ep"
    [ ! -e "$work/at_reset.img" ] || fail "pull --openocd at the reset vector failed but wrote its output"
fi
ocd_tcl "resume" >/dev/null
wait_restart "$n" "reset halt, then resume"
expect_left_running "resume after reset halt"
pull restarted
[ "$(val "$work/restarted.img" generation)" = 0 ] || fail "after reset halt: generation $(val "$work/restarted.img" generation)"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/restarted.img" || fail "after reset halt: arcs differ from the dump"
echo "ok   reset halt: the pull leaves the core halted; resume, and a pull sees the fresh run"

# 2. a core the user halted while the firmware runs
ctl() { # ACTION [ARGS]: its output in ctl_ACTION.txt
    local action=$1
    shift
    "$MCUPROF" ctl "$action" --openocd "$ep" --elf "$elf" --timeout "$to" "$@" >"$work/ctl_$action.txt" 2>&1 ||
        { cat "$work/ctl_$action.txt" >&2; fail "ctl $action --openocd failed"; }
}
ocd_tcl "halt" >/dev/null
expect_left_halted "halt"
for mode in "" --halt; do
    pull "user_halted$mode" $mode
    "$ARCS_EQUAL" "$work/mcuprof.img" "$work/user_halted$mode.img" || fail "pull --openocd $mode on a halted core: arcs differ"
    not_frozen "$work/user_halted$mode.img" "pull --openocd $mode on a halted core"
    expect_left_halted "pull --openocd $mode on a halted core"
done
expect_in "$work/user_halted.err" "mcuprof: note: $ep: the core is halted: read as it is, without a freeze; it stays halted"
ctl status
grep -q '^  sampler  *not asked: the core is halted$' "$work/ctl_status.txt" || { cat "$work/ctl_status.txt" >&2; fail "ctl status on a halted core"; }
expect_left_halted "ctl status --openocd on a halted core"
# without the ELF nothing can switch the call hook of a halted core
rc=0
"$MCUPROF" ctl stop --openocd "$ep" --address "$image_addr" --timeout "$to" >/dev/null 2>"$work/stop_noelf.err" || rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <"$work/stop_noelf.err")" = 1 ] &&
    grep -q "^mcuprof: error: $ep: the core is halted: no sampler tick applies the change; give --elf" "$work/stop_noelf.err" ||
    { cat "$work/stop_noelf.err" >&2; fail "ctl stop --address on a halted core: exit $rc"; }
ctl stop
grep -q '^stopped, ' "$work/ctl_stop.txt" || { cat "$work/ctl_stop.txt" >&2; fail "ctl stop on a halted core"; }
expect_left_halted "ctl stop --openocd on a halted core"
ctl start
grep -q '^running, ' "$work/ctl_start.txt" || { cat "$work/ctl_start.txt" >&2; fail "ctl start on a halted core"; }
expect_left_halted "ctl start --openocd on a halted core"
tcl source "source $mcuprof_tcl"
tcl t_halted_dump "mcuprof_dump $work/script_halted.img $image_addr"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/script_halted.img" || fail "mcuprof_dump on a halted core: arcs differ"
expect_left_halted "mcuprof_dump on a halted core"
ocd_tcl "resume" >/dev/null
expect_left_running "resume"
echo "ok   a halted core: pull, pull --halt, ctl status, stop, start and mcuprof_dump leave it halted, no freeze asked"
echo "$test_name: all checks passed"
