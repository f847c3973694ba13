#!/usr/bin/env bash
# cortexm_faults.sh BOARD ELF WORKDIR - OpenOCD's cortex_m target against a
# dap_fixture that misbehaves; each time OpenOCD says so in one line, and
# the firmware runs on (its sampler's samples_taken, read with mdw, grows):
#   --no-halt        the halt never comes: "timed out while waiting for
#                    target halted", the core runs through it;
#   --hold-reset     the core is held in reset: OpenOCD sees the reset, its
#                    halt times out, the core does not run; it runs again
#                    once the client goes, and halts normally then;
#   --wait-storm MS  the AP answers WAIT from the halt request on, longer
#                    than OpenOCD retries: "Timeout during WAIT recovery",
#                    OpenOCD examines the core again and finds it running;
#   --fault-after N  memory reads fail (STICKYERR): "JTAG-DP STICKY ERROR",
#                    the core runs on.
# Tools from the environment: OPENOCD, OPENOCD_CFG (the cortexm config),
# DAP_FIXTURE, MCUPROF.
set -euo pipefail
board=$1
elf=$2
test_name=openocd.cortexm.faults.$board
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$dir/lib.sh"
# shellcheck source=cortexm_lib.sh
. "$dir/cortexm_lib.sh"
start_cortexm "$board" "$elf" "$3"
count() { sed -n "s/^$1 //p" "$log"; }
# Two reads of the counter 300 ms apart, and OpenOCD's view of the core.
probe=(-c "echo \"C1 [read_memory $counter 32 1]\"" -c "sleep 300"
       -c "echo \"C2 [read_memory $counter 32 1]\"" -c "echo \"STATE [mcuprof.cpu curstate]\"")
runs() { # NAME: the counter grew between C1 and C2
    [ $(($(count C2))) -gt $(($(count C1))) ] || { cat "$log" >&2; fail "$1: the firmware does not run ($(count C1), $(count C2))"; }
}

start_fixture --no-halt
ocd -c "catch {halt 1000}" "${probe[@]}" || { cat "$log" >&2; fail "no-halt: openocd failed"; }
expect_in "$log" "Error: timed out while waiting for target halted"
runs no-halt
[ "$(count STATE)" = running ] || fail "no-halt: OpenOCD says the core is $(count STATE)"
echo "no-halt: $(grep -m1 'timed out' "$log"); samples_taken $(count C1) -> $(count C2)"

start_fixture --hold-reset
ocd -c "catch {halt 1000}" "${probe[@]}" || { cat "$log" >&2; fail "hold-reset: openocd failed"; }
expect_in "$log" "external reset detected"
expect_in "$log" "Error: timed out while waiting for target halted"
[ "$(count C1)" = "$(count C2)" ] || fail "hold-reset: the core ran in reset ($(count C1), $(count C2))"
held=$(count C2)
# the client went: the core runs again, and halts when asked
ocd "${probe[@]}" -c "halt" -c "echo \"HALTED [mcuprof.cpu curstate]\"" || { cat "$log" >&2; fail "hold-reset: openocd failed after"; }
runs hold-reset
[ $(($(count C1))) -gt $((held)) ] || fail "hold-reset: no progress after the reset ended"
[ "$(count HALTED)" = halted ] || fail "hold-reset: no halt after the reset ended"
echo "hold-reset: held at samples_taken $held, then $(count C1) -> $(count C2), halts"

start_fixture --wait-storm 2000
ocd -c "catch {halt 1000}" -c "sleep 2500" -c "poll" "${probe[@]}" || { cat "$log" >&2; fail "wait-storm: openocd failed"; }
expect_in "$log" "Error: Timeout during WAIT recovery"
runs wait-storm
[ "$(count STATE)" = running ] || fail "wait-storm: OpenOCD says the core is $(count STATE)"
echo "wait-storm: $(grep -m1 'WAIT recovery' "$log"); then samples_taken $(count C1) -> $(count C2)"

start_fixture --fault-after 20
ocd -c "echo \"C1 [read_memory $counter 32 1]\"" -c "catch {read_memory $counter 32 64}" \
    -c "echo \"STATE [mcuprof.cpu curstate]\"" || { cat "$log" >&2; fail "fault-after: openocd failed"; }
expect_in "$log" "Error: JTAG-DP STICKY ERROR"
[ "$(count STATE)" = running ] || fail "fault-after: OpenOCD says the core is $(count STATE)"
before=$(count C1)
start_fixture
ocd -c "echo \"C1 [read_memory $counter 32 1]\""
[ $(($(count C1))) -gt $((before)) ] || fail "fault-after: the firmware stopped ($before, $(count C1))"
echo "fault-after: JTAG-DP STICKY ERROR; samples_taken $before, then $(count C1)"
echo "$test_name: all checks passed"
