#!/usr/bin/env bash
# tcl_ctl.sh ELF WORKDIR - `mcuprof ctl --openocd` and
# hosttools/openocd/mcuprof.tcl through the Tcl port of the real OpenOCD
# 0.12 with a cortex_m target, over JTAG to the dap_fixture (a Cortex-M
# debug interface on pull_idle.c running under QEMU):
#   ctl stop, status, start, reset, release   the profile stops and starts,
#                                 the 585 calls of the run are zeroed
#   mcuprof_stop, mcuprof_start, mcuprof_reset, mcuprof_dump, mcuprof_status
#                                 the script sourced into the running
#                                 OpenOCD; its reset zeroes what a drain
#                                 does (mcuprof info accepts the image)
# After every command the core runs and no freeze is held.
# OCD_BOARD: the firmware's board. Tools from the environment: MCUPROF,
# OPENOCD, OPENOCD_CFG (a cortex_m target), DAP_FIXTURE.
set -euo pipefail
test_name=openocd.tcl_ctl.${OCD_BOARD:-mps2-an385}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
# shellcheck source=cortexm_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/cortexm_lib.sh"
start_cortexm_path tcl "$1" "$2"

# 1. mcuprof ctl --openocd
ctl() { # ACTION [ARGS]: its output in ctl_ACTION.txt
    local action=$1
    shift
    "$MCUPROF" ctl "$action" --openocd "$ep" --elf "$elf" --timeout "$to" "$@" >"$work/ctl_$action.txt" 2>&1 ||
        { cat "$work/ctl_$action.txt" >&2; fail "ctl $action --openocd failed"; }
}
ctl stop
grep -q '^stopped, ' "$work/ctl_stop.txt" || fail "ctl stop: $(cat "$work/ctl_stop.txt")"
[ "$(core_state)" = running ] || fail "ctl stop --openocd: the core is $(core_state)"
expect_unfrozen "ctl stop --openocd"
s0=$(image_word 224)
sleep 0.3
[ "$(image_word 224)" = "$s0" ] || fail "ctl stop --openocd: samples_taken moves on ($s0 -> $(image_word 224))"
ctl status
grep -q '^stopped, ' "$work/ctl_status.txt" && grep -q '^  sampler  *answered a freeze in [0-9]* ms$' "$work/ctl_status.txt" ||
    { cat "$work/ctl_status.txt" >&2; fail "ctl status --openocd"; }
ctl start
grep -q '^running, ' "$work/ctl_start.txt" || fail "ctl start: $(cat "$work/ctl_start.txt")"
expect_left_running "ctl start --openocd"
ctl reset
grep -q '^zeroed [0-9]* samples and 11 arcs (585 calls); generation 0 -> 1$' "$work/ctl_reset.txt" ||
    { cat "$work/ctl_reset.txt" >&2; fail "ctl reset --openocd"; }
expect_left_running "ctl reset --openocd"
ctl release
grep -q '^no freeze to release' "$work/ctl_release.txt" || { cat "$work/ctl_release.txt" >&2; fail "ctl release --openocd"; }
expect_left_running "ctl release --openocd"
echo "ok   mcuprof ctl --openocd: stop, status, start, reset, release"

# 2. hosttools/openocd/mcuprof.tcl in the same OpenOCD, through its Tcl port
tcl() { # NAME COMMAND: the result in NAME.txt (echo goes to the log)
    ocd_tcl "$2" >"$work/$1.txt"
}
tcl source "source $mcuprof_tcl"
tcl t_stop "mcuprof_stop $image_addr"
expect_in "$work/openocd_server.log" "stopped, "
tcl t_start "mcuprof_start $image_addr"
expect_in "$work/openocd_server.log" "running, "
tcl t_reset "mcuprof_reset $image_addr"
tcl t_dump "mcuprof_dump $work/script.img $image_addr"
expect_in "$work/openocd_server.log" "bytes of profile image written to $work/script.img (frozen snapshot)"
[ "$(val "$work/script.img" generation)" = 2 ] && [ "$(val "$work/script.img" arcs_used)" = 0 ] ||
    fail "mcuprof_reset then mcuprof_dump: generation $(val "$work/script.img" generation)"
tcl t_status "mcuprof_status $image_addr"
expect_in "$work/openocd_server.log" "  sampler                      answered a freeze"
expect_left_running "mcuprof.tcl"
echo "ok   mcuprof.tcl through the Tcl port: mcuprof_stop, mcuprof_start, mcuprof_reset, mcuprof_dump, mcuprof_status"
echo "$test_name: all checks passed"
