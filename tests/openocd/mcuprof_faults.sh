#!/usr/bin/env bash
# mcuprof_faults.sh ELF WORKDIR - faults on the way from mcuprof through
# the real OpenOCD 0.12 (cortex_m target, its Tcl port and GDB server) to
# a dap_fixture that misbehaves, the firmware running under QEMU:
#   --wait-storm MS --wait-storm-after N   the AP answers WAIT for MS ms
#                  from bus access N, longer than OpenOCD retries: a pull
#                  whose read it hits fails;
#   --wait-storm MS  the same from the first halt request: pull --halt
#                  finds the core does not halt;
#   --fault-after N  every memory read after the first N faults (the
#                  JTAG-DP's STICKYERR): the pull fails mid-read;
#   --hold-reset   the core is held in reset: nothing runs, nothing halts;
#   --no-halt      a halt request is never served: pull --halt over the Tcl
#                  port fails; a pull over the GDB server fails when it
#                  needs a stop (the firmware did not answer its freeze at
#                  the first look), else completes, exact.
# Each failure is one error line naming the endpoint and what failed; no
# output file is written; the target is left running and unfrozen
# (checked through a fixture and an OpenOCD without the fault).
# OCD_BOARD: the firmware's board. Tools from the environment: MCUPROF,
# ARCS_EQUAL, OPENOCD, OPENOCD_CFG (a cortex_m target), DAP_FIXTURE.
set -euo pipefail
test_name=openocd.mcuprof_faults.${OCD_BOARD:-mps2-an385}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
: "${ARCS_EQUAL:?}"
elf=$1
start_target "$elf" "$2" --wait-storm 1500 --wait-storm-after 1500
image_addr=$(info_json "$work/mcuprof.img" .header.image_addr)

# `mcuprof pull ARGS -o NAME.gmon` must fail: exit 1, one error line
# naming ENDPOINT and matching PATTERN, no output.
pull_fails() { # NAME ENDPOINT PATTERN ARGS...
    local name=$1 ep=$2 pattern=$3 rc=0
    shift 3
    "$MCUPROF" pull "$@" --elf "$elf" --timeout 10 -o "$work/$name.gmon" 2>"$work/$name.err" || rc=$?
    [ "$rc" = 1 ] || { cat "$work/$name.err" >&2; fail "$name: exit $rc, not 1"; }
    [ "$(wc -l <"$work/$name.err")" = 1 ] || { cat "$work/$name.err" >&2; fail "$name: not one error line"; }
    grep -q "^mcuprof: error: $ep: $pattern" "$work/$name.err" ||
        { cat "$work/$name.err" >&2; fail "$name: the error does not name $ep and '$pattern'"; }
    [ -z "$(ls "$work" | grep "^$name.gmon")" ] || fail "$name: output left behind: $(ls "$work" | grep "^$name.gmon")"
    echo "ok   $name: $(cat "$work/$name.err")"
}

# Through a fixture and an OpenOCD without faults: the core runs and no
# freeze is held (a fixture held in reset lets the core go when OpenOCD,
# its client, goes).
left_well() { # NAME
    stop_ocd_server
    start_fixture
    start_ocd_server
    expect_left_running "$1"
    stop_ocd_server
}

# 1. a WAIT storm mid-read: OpenOCD gives up ("Timeout during WAIT recovery")
start_ocd_server
pull_fails wait_storm "127.0.0.1:$tcl_port" "'read_memory 0x[0-9a-f]* 32 [0-9]*' failed: " --openocd "127.0.0.1:$tcl_port"
expect_in "$work/openocd_server.log" "Timeout during WAIT recovery"
sleep 1.5 # the storm ends
left_well "a WAIT storm"

# 2. a WAIT storm from the halt request: the core never halts
stop_fixture
start_fixture --wait-storm 1500
start_ocd_server
pull_fails wait_halt "127.0.0.1:$tcl_port" "the core does not halt: still running 5000 ms after 'halt'" \
    --openocd "127.0.0.1:$tcl_port" --halt
left_well "a WAIT storm on halt"

# 3. a sticky error mid-read (past the header and the freeze's words)
stop_fixture
start_fixture --fault-after 600
start_ocd_server
pull_fails sticky "127.0.0.1:$tcl_port" "'read_memory 0x[0-9a-f]* [0-9]* [0-9]*' failed: " --openocd "127.0.0.1:$tcl_port"
expect_in "$work/openocd_server.log" "JTAG-DP STICKY ERROR"
left_well "a sticky error"

# 4. the core held in reset: OpenOCD says so, nothing is asked of it
stop_fixture
start_fixture --hold-reset
start_ocd_server
[ "$(core_state)" = reset ] || fail "--hold-reset: OpenOCD sees the core $(core_state)"
for mode in "" --halt; do
    pull_fails "in_reset$mode" "127.0.0.1:$tcl_port" "the core is held in reset (OpenOCD's state 'reset'): it runs no code and cannot be halted" \
        --openocd "127.0.0.1:$tcl_port" $mode
done
[ "$(image_word 188)" = 0 ] || fail "the core held in reset: freeze_request $(image_word 188)"
left_well "the core held in reset"

# 5. a halt that does not come: through the Tcl port (pull --halt), and
# through the GDB server, whose attach cannot halt the core either, so the
# pull's first stop never comes
stop_fixture
start_fixture --no-halt
start_ocd_gdb_server
pull_fails no_halt "127.0.0.1:$tcl_port" "the core does not halt: still running 5000 ms after 'halt'" \
    --openocd "127.0.0.1:$tcl_port" --halt
expect_core_running "pull --openocd --halt, a halt that does not come"
# Over the GDB server the pull needs a stop only when the firmware does not
# answer its freeze at the first look: it then fails on the stop reply
# (one line, nothing written); when the first look finds the answer, it
# completes, frozen and exact, as the freeze needs no halt.
rc=0
"$MCUPROF" pull --gdb "127.0.0.1:$gdb_port" --elf "$elf" --timeout 10 --image "$work/no_halt_gdb.img" \
    2>"$work/no_halt_gdb.err" || rc=$?
if [ "$rc" = 0 ]; then
    "$ARCS_EQUAL" "$work/mcuprof.img" "$work/no_halt_gdb.img" >/dev/null || fail "no_halt_gdb: arcs differ from the dump"
    echo "ok   no_halt_gdb: the freeze was answered at the first look: exact, no stop needed"
else
    [ "$rc" = 1 ] && [ "$(wc -l <"$work/no_halt_gdb.err")" = 1 ] &&
        grep -q "^mcuprof: error: 127.0.0.1:$gdb_port: no \(complete \)\?answer within 10000 ms while waiting for the stop reply after an interrupt (0x03)" "$work/no_halt_gdb.err" ||
        { cat "$work/no_halt_gdb.err" >&2; fail "no_halt_gdb: exit $rc, not the one line on the stop"; }
    [ ! -e "$work/no_halt_gdb.img" ] || fail "no_halt_gdb: output left behind"
    echo "ok   no_halt_gdb: $(cat "$work/no_halt_gdb.err")"
fi
expect_core_running "pull --gdb, a halt that does not come"
left_well "a halt that does not come"
echo "$test_name: all checks passed"
