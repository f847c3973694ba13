#!/usr/bin/env bash
# faults.sh ELF WORKDIR - the real OpenOCD over JTAG to a dap_fixture fixture
# that misbehaves, with the firmware running under QEMU:
#   --wait 3         the AP answers WAIT after each TAR write: OpenOCD
#                    retries, and the script's dump and `mcuprof pull
#                    --openocd` still hold exactly the semihosting dump's arcs;
#   --fault-after N  memory reads fault mid-dump (STICKYERR): OpenOCD and the
#                    script report it, the pull fails with one error line;
#   --die-after N    the probe goes away mid-dump (OpenOCD with it): the
#                    same, and a second line says the target is left
#                    frozen and how to release it.
# A failed dump or pull leaves no output file behind.
# Tools from the environment: MCUPROF, ARCS_EQUAL, OPENOCD, OPENOCD_CFG, DAP_FIXTURE.
set -euo pipefail
test_name=openocd.jtag.faults
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
: "${ARCS_EQUAL:?}"
elf=$1
start_target "$elf" "$2" --wait 3
addr=$(info_json "$work/mcuprof.img" .header.image_addr)

# `mcuprof pull --openocd` must fail with one error line naming the Tcl
# port, exit non-zero and write nothing.
# With FROZEN (the server went away while the target was frozen), a
# second line says the target is left frozen and how to release it.
pull_fails() { # NAME [FROZEN]
    local out=$work/$1.gmon rc=0 lines=1
    [ -z "${2:-}" ] || lines=2
    "$MCUPROF" pull --openocd "127.0.0.1:$tcl_port" --elf "$elf" --timeout 3000 -o "$out" \
        2>"$work/$1.err" || rc=$?
    [ "$rc" -ne 0 ] || fail "$1: the pull succeeded"
    [ "$(wc -l <"$work/$1.err")" -eq $lines ] || { cat "$work/$1.err" >&2; fail "$1: not $lines error lines"; }
    [ $lines = 1 ] || tail -1 "$work/$1.err" | grep -q "^mcuprof: error: 127.0.0.1:$tcl_port: the target \(is\|may be\) left frozen: .*; release it with: mcuprof ctl release --openocd 127.0.0.1:$tcl_port --address 0x" ||
        { cat "$work/$1.err" >&2; fail "$1: no line on the frozen target"; }
    grep -q "^mcuprof: error: 127.0.0.1:$tcl_port: " "$work/$1.err" ||
        { cat "$work/$1.err" >&2; fail "$1: the error does not name the Tcl port"; }
    [ -z "$(ls "$work" | grep "^$1.gmon")" ] || fail "$1: output left behind: $(ls "$work" | grep "^$1.gmon")"
    echo "$1: $(cat "$work/$1.err")"
}

# WAIT: OpenOCD recovers, the snapshots are exact.
ocd -c "source $mcuprof_tcl" -c "mcuprof_dump $work/wait.img $addr" ||
    { cat "$work/openocd.log" >&2; fail "dump through WAIT failed"; }
expect_in "$work/openocd.log" "DAP transaction stalled (WAIT)"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/wait.img" || fail "dump through WAIT: arcs differ"
start_ocd_server
"$MCUPROF" pull --openocd "127.0.0.1:$tcl_port" --elf "$elf" --image "$work/wait_pull.img" ||
    fail "pull through WAIT failed"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/wait_pull.img" || fail "pull through WAIT: arcs differ"
stop_ocd_server
expect_in "$work/openocd_server.log" "DAP transaction stalled (WAIT)"

# A bus error mid-dump: past the header, the handshake and the first
# hundreds of words (the pull reads its header byte by byte).
start_fixture --fault-after 600
ocd -c "source $mcuprof_tcl" -c "if {[catch {mcuprof_dump $work/fault.img $addr} m]} {echo \"FAILED: \$m\"}" ||
    { cat "$work/openocd.log" >&2; fail "openocd failed"; }
expect_in "$work/openocd.log" "JTAG-DP STICKY ERROR"
expect_in "$work/openocd.log" "FAILED: mcuprof: dump_image failed"
[ -z "$(ls "$work" | grep '^fault.img')" ] || fail "a failed dump left $(ls "$work" | grep '^fault.img')"
start_fixture --fault-after 600
start_ocd_server
pull_fails fault_pull
stop_ocd_server

# The probe goes away mid-dump. OpenOCD 0.12's remote_bitbang then stops on
# an assertion (its own); the script cannot answer, nor clean up after
# dump_image: only the .part file can remain, never the named output.
start_fixture --die-after 600
rc=0
ocd -c "source $mcuprof_tcl" -c "mcuprof_dump $work/die.img $addr" || rc=$?
[ "$rc" -ne 0 ] || fail "openocd did not notice the probe going away"
[ ! -e "$work/die.img" ] || fail "a dump cut short left die.img"
# That dump left its freeze behind: a pull refuses it as another host's
# (one error line, nothing written), and ctl release ends it.
start_fixture
start_ocd_server
rc=0
"$MCUPROF" pull --openocd "127.0.0.1:$tcl_port" --elf "$elf" -o "$work/stale.gmon" 2>"$work/stale.err" || rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <"$work/stale.err")" = 1 ] &&
    grep -q "^mcuprof: error: 127.0.0.1:$tcl_port: the image is frozen by another host (freeze_request 0x1, " "$work/stale.err" ||
    { cat "$work/stale.err" >&2; fail "stale freeze: not refused"; }
[ ! -e "$work/stale.gmon" ] || fail "stale freeze: output written"
"$MCUPROF" ctl release --openocd "127.0.0.1:$tcl_port" --elf "$elf" >/dev/null || fail "stale freeze: ctl release failed"
stop_ocd_server
start_fixture --die-after 600
start_ocd_server
pull_fails die_pull frozen
stop_ocd_server
echo "$test_name: all checks passed"
