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
#   mcuprof ctl --gdb             stop, status, start, reset, release
#   hosttools/gdb/mcuprof.gdb     mcuprof-dump (a hardware watchpoint on
#                                 freeze_ack), mcuprof-status, mcuprof-reset
#   monitor reset halt (gdb)      the core stays halted at the reset vector
#                                 until a command lets it run
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
: "${ARCS_EQUAL:?}" "${GDB:?}"
elf=$1
gdb_script=$here/../../hosttools/gdb/mcuprof.gdb
start_target "$elf" "$2"
start_ocd_gdb_server
image_addr=$(info_json "$work/mcuprof.img" .header.image_addr)
ep=127.0.0.1:$gdb_port
expect_left_running "openocd's init"
val() { info_json "$1" ".header.$2 // .counters.$2"; }

pull() { # NAME ARGS...: mcuprof pull --gdb ... --image NAME.img
    local name=$1
    shift
    "$MCUPROF" pull --gdb "$ep" --elf "$elf" --image "$work/$name.img" "$@" 2>"$work/$name.err" ||
        { cat "$work/$name.err" >&2; fail "pull --gdb $* ($name) failed"; }
}

# 1. a plain pull: frozen, exact; gmon.out with it
pull live -o "$work/live.gmon"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/live.img" || fail "pull --gdb: arcs differ from the dump"
"$MCUPROF" convert "$work/mcuprof.img" -o "$work/dump.gmon"
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

# gdb-multiarch on OpenOCD's GDB server; NAME.log keeps its output.
g() { # NAME COMMANDS...
    local name=$1 a=()
    shift
    for c in "$@"; do a+=(-ex "$c"); done
    timeout 30 "$GDB" -nx -batch -ex "set pagination off" -ex "file $elf" -ex "target extended-remote $ep" \
        "${a[@]}" >"$work/$name.log" 2>&1 || { cat "$work/$name.log" >&2; fail "gdb ($name) failed"; }
}
readies() { grep -c "pull_idle: ready" "$work/uart.log" || true; }

# 4. monitor reset run: the firmware starts over; a drain then empties it
n=$(readies)
g reset_run "monitor reset run" detach
wait_console "$work/uart.log" "pull_idle: ready" 1
for i in $(seq 200); do [ "$(readies)" -gt "$n" ] && break; sleep 0.05; done
[ "$(readies)" -gt "$n" ] || fail "monitor reset run: the firmware did not start over"
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

# 5. mcuprof ctl --gdb
ctl() { # ACTION: its output in ctl_ACTION.txt
    "$MCUPROF" ctl "$1" --gdb "$ep" --elf "$elf" >"$work/ctl_$1.txt" 2>&1 ||
        { cat "$work/ctl_$1.txt" >&2; fail "ctl $1 --gdb failed"; }
    expect_core_running "ctl $1 --gdb"
}
ctl stop
grep -q '^stopped, ' "$work/ctl_stop.txt" || fail "ctl stop: $(cat "$work/ctl_stop.txt")"
s0=$(image_word 224)
sleep 0.3
[ "$(image_word 224)" = "$s0" ] || fail "ctl stop --gdb: samples_taken moves on ($s0 -> $(image_word 224))"
ctl status
grep -q '^stopped, ' "$work/ctl_status.txt" && grep -q '^  sampler  *answered a freeze in [0-9]* ms$' "$work/ctl_status.txt" ||
    { cat "$work/ctl_status.txt" >&2; fail "ctl status --gdb"; }
ctl start
grep -q '^running, ' "$work/ctl_start.txt" || fail "ctl start: $(cat "$work/ctl_start.txt")"
expect_left_running "ctl start --gdb"
ctl reset
grep -q '^zeroed [0-9]* samples and 0 arcs (0 calls); generation 1 -> 2$' "$work/ctl_reset.txt" ||
    { cat "$work/ctl_reset.txt" >&2; fail "ctl reset --gdb"; }
ctl release
grep -q '^no freeze to release' "$work/ctl_release.txt" || { cat "$work/ctl_release.txt" >&2; fail "ctl release --gdb"; }
echo "ok   mcuprof ctl --gdb: stop held samples_taken at $s0, status, start, reset, release"

# 6. the GDB script in gdb-multiarch connected to OpenOCD. OpenOCD keeps
# the core halted when gdb detaches: `monitor resume` lets it run.
g script "source $gdb_script" "mcuprof-reset" "mcuprof-status" "mcuprof-dump $work/script.img" \
    'printf "freeze_request %u freeze_ack %u\n", *(unsigned int *)((char *)&__mcuprof_start + 188), *(unsigned int *)((char *)&__mcuprof_start + 192)' \
    "monitor resume" detach
grep -q "atchpoint [0-9]*: \*(unsigned int \*)((char \*)&__mcuprof_start + 192)" "$work/script.log" ||
    { cat "$work/script.log" >&2; fail "mcuprof-dump: no hardware watchpoint on freeze_ack"; }
grep -q '^Hardware watchpoint' "$work/script.log" || { cat "$work/script.log" >&2; fail "mcuprof-dump: the watchpoint is not a hardware one"; }
grep -q '^mcuprof: profile image written (frozen snapshot)$' "$work/script.log" &&
    grep -q '^freeze_request 0 freeze_ack 0$' "$work/script.log" || { cat "$work/script.log" >&2; fail "mcuprof-dump"; }
[ "$(val "$work/script.img" generation)" = 3 ] && [ "$(val "$work/script.img" arcs_used)" = 0 ] ||
    fail "mcuprof-reset then mcuprof-dump: generation $(val "$work/script.img" generation), $(val "$work/script.img" arcs_used) arcs"
grep -q '^running, [0-9]* samples, 0 arcs$' "$work/script.log" || { cat "$work/script.log" >&2; fail "mcuprof-status"; }
expect_left_running "the GDB script, then monitor resume and detach"
echo "ok   mcuprof.gdb in gdb-multiarch on OpenOCD: mcuprof-reset, mcuprof-status, mcuprof-dump (hardware watchpoint)"

# 7. monitor reset halt: halted at the reset vector until a command lets it run
n=$(readies)
g reset_halt "monitor reset halt" detach
expect_left_halted "monitor reset halt, then detach"
pull restarted
[ "$(readies)" -gt "$n" ] || fail "pull --gdb after monitor reset halt: the firmware did not start over"
[ "$(val "$work/restarted.img" generation)" = 0 ] || fail "after monitor reset halt: generation $(val "$work/restarted.img" generation)"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/restarted.img" || fail "after monitor reset halt: arcs differ from the dump"
expect_left_running "pull --gdb after monitor reset halt"
echo "ok   monitor reset halt: the core waits at the reset vector; pull --gdb lets it run and sees the fresh run"
echo "$test_name: all checks passed"
