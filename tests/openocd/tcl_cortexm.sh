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
#   mcuprof ctl --openocd              stop, status, start, reset, release
#   hosttools/openocd/mcuprof.tcl      mcuprof_dump, mcuprof_stop,
#                                      mcuprof_start, mcuprof_reset, mcuprof_status
#   reset halt (OpenOCD)               pulls, ctl and the script on a core
#                                      halted at the reset vector: no wait
#                                      for a freeze nothing can answer, the
#                                      core left halted; resume, and a pull
#                                      sees the fresh run
# After every command the core runs (or stays halted, where the user
# halted it) and no freeze is held.
# OCD_BOARD: the firmware's board. Tools from the environment: MCUPROF,
# ARCS_EQUAL, OPENOCD, OPENOCD_CFG (a cortex_m target), DAP_FIXTURE.
set -euo pipefail
test_name=openocd.tcl_cortexm.${OCD_BOARD:-mps2-an385}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
: "${ARCS_EQUAL:?}"
elf=$1
start_target "$elf" "$2"
start_ocd_server
image_addr=$(info_json "$work/mcuprof.img" .header.image_addr)
ep=127.0.0.1:$tcl_port
expect_left_running "openocd's init"
val() { info_json "$1" ".header.$2 // .counters.$2"; }

pull() { # NAME ARGS...: mcuprof pull --openocd ... --image NAME.img
    local name=$1
    shift
    "$MCUPROF" pull --openocd "$ep" --elf "$elf" --image "$work/$name.img" "$@" 2>"$work/$name.err" ||
        { cat "$work/$name.err" >&2; fail "pull --openocd $* ($name) failed"; }
}
readies() { grep -c "pull_idle: ready" "$work/uart.log" || true; }
wait_restart() { # N WHAT: the firmware printed its ready line more than N times
    local i
    for i in $(seq 200); do [ "$(readies)" -gt "$1" ] && return 0; sleep 0.05; done
    fail "$2: the firmware did not start over"
}

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

# 5. mcuprof ctl --openocd
ctl() { # ACTION [ARGS]: its output in ctl_ACTION.txt
    local action=$1
    shift
    "$MCUPROF" ctl "$action" --openocd "$ep" --elf "$elf" "$@" >"$work/ctl_$action.txt" 2>&1 ||
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
grep -q '^zeroed [0-9]* samples and 0 arcs (0 calls); generation 1 -> 2$' "$work/ctl_reset.txt" ||
    { cat "$work/ctl_reset.txt" >&2; fail "ctl reset --openocd"; }
expect_left_running "ctl reset --openocd"
ctl release
grep -q '^no freeze to release' "$work/ctl_release.txt" || { cat "$work/ctl_release.txt" >&2; fail "ctl release --openocd"; }
expect_left_running "ctl release --openocd"
echo "ok   mcuprof ctl --openocd: stop, status, start, reset, release"

# 6. hosttools/openocd/mcuprof.tcl in the same OpenOCD, through its Tcl port
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
[ "$(val "$work/script.img" generation)" = 3 ] && [ "$(val "$work/script.img" arcs_used)" = 0 ] ||
    fail "mcuprof_reset then mcuprof_dump: generation $(val "$work/script.img" generation)"
tcl t_status "mcuprof_status $image_addr"
expect_in "$work/openocd_server.log" "  sampler                      answered a freeze"
expect_left_running "mcuprof.tcl"
echo "ok   mcuprof.tcl through the Tcl port: mcuprof_stop, mcuprof_start, mcuprof_reset, mcuprof_dump, mcuprof_status"

# 7. reset halt: the core waits at the reset vector
n=$(readies)
ocd_tcl "reset halt" >"$work/reset_halt.txt"
expect_left_halted "reset halt"
t0=$(date +%s%N)
rc=0
"$MCUPROF" pull --openocd "$ep" --elf "$elf" -o "$work/at_reset.gmon" 2>"$work/at_reset.err" || rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
echo "     pull --openocd at the reset vector (exit $rc, $ms ms): $(cat "$work/at_reset.err")"
expect_left_halted "pull --openocd on a core held at the reset vector"
[ "$ms" -lt 3000 ] || fail "pull --openocd on a halted core took $ms ms: waited for a freeze"
ocd_tcl "resume" >/dev/null
wait_restart "$n" "reset halt, then resume"
expect_left_running "resume after reset halt"
pull restarted
[ "$(val "$work/restarted.img" generation)" = 0 ] || fail "after reset halt: generation $(val "$work/restarted.img" generation)"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/restarted.img" || fail "after reset halt: arcs differ from the dump"
echo "ok   reset halt: the pull leaves the core halted; resume, and a pull sees the fresh run"

# 8. a core the user halted while the firmware runs
ocd_tcl "halt" >/dev/null
expect_left_halted "halt"
for mode in "" --halt; do
    t0=$(date +%s%N)
    pull "user_halted$mode" $mode
    ms=$((($(date +%s%N) - t0) / 1000000))
    "$ARCS_EQUAL" "$work/mcuprof.img" "$work/user_halted$mode.img" || fail "pull --openocd $mode on a halted core: arcs differ"
    expect_left_halted "pull --openocd $mode on a halted core"
    [ "$ms" -lt 3000 ] || fail "pull --openocd $mode on a halted core took $ms ms"
done
t0=$(date +%s%N)
ctl status
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$ms" -lt 3000 ] || fail "ctl status on a halted core took $ms ms"
grep -q '^  sampler  *not asked' "$work/ctl_status.txt" || { cat "$work/ctl_status.txt" >&2; fail "ctl status on a halted core"; }
expect_left_halted "ctl status --openocd on a halted core"
tcl t_halted_dump "mcuprof_dump $work/script_halted.img $image_addr"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/script_halted.img" || fail "mcuprof_dump on a halted core: arcs differ"
expect_left_halted "mcuprof_dump on a halted core"
ocd_tcl "resume" >/dev/null
expect_left_running "resume"
echo "ok   a halted core: pull, pull --halt, ctl status and mcuprof_dump read it as it is and leave it halted"
echo "$test_name: all checks passed"
