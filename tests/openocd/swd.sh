#!/usr/bin/env bash
# swd.sh CASE BOARD ELF WORKDIR - the real OpenOCD over SWD: its buspirate
# adapter driver on the pseudo-terminal of `dap_fixture --buspirate` (an
# ARM SW-DP in front of the MEM-AP on QEMU's memory), while the firmware
# runs under QEMU on BOARD.
#   script  hosttools/openocd/mcuprof.tcl's mcuprof_dump holds exactly the
#           arcs of the semihosting dump, the freeze is released;
#   pull    `mcuprof pull --openocd` (image and gmon.out at once) too, and
#           the core runs on;
#   faults  memory reads fault mid-dump (--fault-after: STICKYERR, then
#           FAULT to every access until ABORT clears it): OpenOCD
#           reconnects and reports it, the script fails, the pull fails
#           with one error line and writes nothing, and the target runs on
#           (a pull through a sound link afterwards works);
#   wait    what OpenOCD 0.12's buspirate driver does with a WAIT (--wait
#           1: the AP answers WAIT once after each TAR write): it writes
#           ABORT and goes on, neither retrying the access nor reporting
#           it. The second read_memory of the vector table (the first
#           set CSW up; its WAIT fell on a CSW read) succeeds with its
#           words shifted by one: the first comes back second, after the
#           posted result of the read before. If
#           this check fails, the driver was fixed: retry WAIT here and
#           in docs/pulling.md#swd.
# Tools from the environment: MCUPROF, ARCS_EQUAL, OPENOCD, OPENOCD_CFG
# (fixture/openocd-swd-memap.cfg), DAP_FIXTURE.
set -euo pipefail
case_name=$1
board=$2
elf=$3
test_name=openocd.swd.$case_name.$board
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
: "${ARCS_EQUAL:?}"

# QEMU on BOARD and an SWD fixture on its gdbstub; jtag_port is the pty.
work=$4
rm -rf "$work"
mkdir -p "$work"
start_qemu "$board" "$elf" "$work" "pull_idle: ready"
[ -s "$work/mcuprof.img" ] || fail "no semihosting dump"
addr=$(info_json "$work/mcuprof.img" .header.image_addr)
taken() { info_json "$1" .counters.samples_taken; }
calls() { info_json "$1" .counters.total_calls; }

# Three serial round trips per word through OpenOCD's buspirate driver:
# a pull of a few KB takes seconds, more on a loaded host.
pull_timeout=60

if [ "$case_name" = script ]; then
    start_fixture --buspirate
    ocd -c "source $mcuprof_tcl" \
        -c "echo \"STATE [[target current] curstate]\"" \
        -c "mcuprof_dump $work/a.img $addr" \
        -c "echo \"AFTER [read_memory [expr {$addr + 188}] 32 2]\"" ||
        { cat "$work/openocd.log" >&2; fail "openocd failed"; }
    expect_in "$work/openocd.log" "SWD DPIDR 0x2ba01477"
    expect_in "$work/openocd.log" "STATE running"
    size=$(stat -c %s "$work/mcuprof.img")
    expect_in "$work/openocd.log" "mcuprof: $size bytes of profile image written to $work/a.img (frozen snapshot)"
    # freeze_request and freeze_ack both back to 0: released
    expect_in "$work/openocd.log" "AFTER 0x0 0x0"
    "$ARCS_EQUAL" "$work/mcuprof.img" "$work/a.img" || fail "a.img: arcs differ from the dump"
elif [ "$case_name" = pull ]; then
    start_fixture --buspirate
    start_ocd_server
    "$MCUPROF" pull --openocd "127.0.0.1:$tcl_port" --elf "$elf" --timeout $pull_timeout \
        --image "$work/frozen.img" -o "$work/gmon.out" || fail "pull --openocd failed"
    stop_ocd_server
    "$ARCS_EQUAL" "$work/mcuprof.img" "$work/frozen.img" || fail "frozen pull differs from the dump"
    "$MCUPROF" convert "$work/mcuprof.img" -o "$work/gmon.dump"
    [ "$(calls "$work/gmon.out")" = "$(calls "$work/gmon.dump")" ] ||
        fail "gmon.out calls $(calls "$work/gmon.out"), dump $(calls "$work/gmon.dump")"
    # released (freeze_request and freeze_ack 0), and the sampler counts on
    ocd -c "echo \"AFTER [read_memory [expr {$addr + 188}] 32 2]\"" ||
        { cat "$work/openocd.log" >&2; fail "openocd failed"; }
    expect_in "$work/openocd.log" "AFTER 0x0 0x0"
    [ "$(taken "$work/frozen.img")" -gt "$(taken "$work/mcuprof.img")" ] || fail "the core did not run on"
elif [ "$case_name" = faults ]; then
    # Past the header, the handshake and the first hundreds of words.
    start_fixture --buspirate --fault-after 600
    ocd -c "source $mcuprof_tcl" \
        -c "if {[catch {mcuprof_dump $work/fault.img $addr} m]} {echo \"FAILED: \$m\"}" ||
        { cat "$work/openocd.log" >&2; fail "openocd failed"; }
    expect_in "$work/openocd.log" "Error: Failed to read memory at 0x"
    expect_in "$work/openocd.log" "FAILED: mcuprof: dump_image failed"
    # the FAULT made OpenOCD reconnect: line reset, DPIDR, ABORT
    [ "$(grep -c 'SWD DPIDR 0x2ba01477' "$work/openocd.log")" -ge 2 ] ||
        { cat "$work/openocd.log" >&2; fail "no reconnection after the FAULT"; }
    ! compgen -G "$work/fault.img*" >/dev/null || fail "a failed dump left $(cd "$work" && echo fault.img*)"

    start_fixture --buspirate --fault-after 600
    start_ocd_server
    rc=0
    "$MCUPROF" pull --openocd "127.0.0.1:$tcl_port" --elf "$elf" --timeout $pull_timeout -o "$work/fault.gmon" \
        2>"$work/fault.err" || rc=$?
    stop_ocd_server
    [ "$rc" -ne 0 ] || fail "the pull through a FAULT succeeded"
    [ "$(wc -l <"$work/fault.err")" -eq 1 ] || { cat "$work/fault.err" >&2; fail "not one error line"; }
    grep -q "^mcuprof: error: 127.0.0.1:$tcl_port: " "$work/fault.err" ||
        { cat "$work/fault.err" >&2; fail "the error does not name the Tcl port"; }
    ! compgen -G "$work/fault.gmon*" >/dev/null || fail "output left behind: $(cd "$work" && echo fault.gmon*)"
    echo "fault: $(cat "$work/fault.err")"

    # The target runs on, released: a pull through a sound link is exact.
    start_fixture --buspirate
    start_ocd_server
    "$MCUPROF" pull --openocd "127.0.0.1:$tcl_port" --elf "$elf" --timeout $pull_timeout --image "$work/after.img" ||
        fail "pull after the FAULT failed"
    "$ARCS_EQUAL" "$work/mcuprof.img" "$work/after.img" || fail "pull after the FAULT: arcs differ"
    [ "$(taken "$work/after.img")" -gt "$(taken "$work/mcuprof.img")" ] || fail "the core did not run on"
elif [ "$case_name" = wait ]; then
    start_fixture --buspirate --wait 1 --verbose
    ocd -c "read_memory 0 32 2" -c "echo \"VECTORS [read_memory 0 32 2]\"" ||
        { cat "$work/openocd.log" >&2; fail "openocd failed"; }
    stop_fixture # its last line counts the WAITs
    arm-none-eabi-objcopy -O binary -j .vectors "$elf" "$work/vectors.bin" 2>/dev/null ||
        arm-none-eabi-objcopy -O binary "$elf" "$work/vectors.bin"
    read -r sp reset < <(od -An -tx4 -N8 "$work/vectors.bin")
    sp=$(printf '0x%x' "0x$sp")
    reset=$(printf '0x%x' "0x$reset")
    got=$(sed -n 's/^VECTORS //p' "$work/openocd.log")
    grep -q 'SWD AP R 0xc ack 2' "$work/dap_fixture.log" || fail "the fixture answered no WAIT"
    ! grep -q '^Error' "$work/openocd.log" || { cat "$work/openocd.log" >&2; fail "OpenOCD reported the WAIT"; }
    [ "$got" != "$sp $reset" ] || fail "the vectors read back whole: the buspirate driver retries WAIT now"
    [ "${got#* }" = "$sp" ] || fail "vectors read '$got', not shifted by one word (sp $sp, reset $reset)"
    echo "wait: read_memory 0 32 2 gave '$got' for '$sp $reset', with no error"
else
    fail "unknown case $case_name"
fi
echo "$test_name: all checks passed"
