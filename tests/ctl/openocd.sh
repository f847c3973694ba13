#!/usr/bin/env bash
# openocd.sh ELF WORKDIR - `mcuprof ctl --openocd` through the real
# OpenOCD's Tcl RPC port, and the same four commands of
# hosttools/openocd/mcuprof.tcl in the real OpenOCD, over JTAG to the
# dap_fixture fixture (tests/openocd) whose memory is that of ctl_loop.c
# running under QEMU: after stop the arcs and every counter stay as they
# were while the firmware goes on for rounds, after start they grow,
# reset zeroes the tables and increments generation, status says what the
# image says, another host's freeze is refused and taken over on request.
# Tools from the environment: MCUPROF, ARCS_EQUAL, OPENOCD, OPENOCD_CFG, DAP_FIXTURE.
set -euo pipefail
test_name=ctl.openocd
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
script=$here/../../hosttools/openocd/mcuprof.tcl
elf=$1
work=$2
# shellcheck source=lib.sh
. "$here/lib.sh"
# shellcheck source=../openocd/lib.sh
. "$here/../openocd/lib.sh"
: "${ARCS_EQUAL:?}"

rm -rf "$work"
mkdir -p "$work"
cd "$work"
start_qemu mps2-an385 "$elf" "$work" "ctl_loop: running"
start_fixture
stood_still() { # A B: same arcs, samples and losses
    "$ARCS_EQUAL" "$1" "$2" >/dev/null || fail "$(basename "$2"): the arcs changed after stop"
    [ "$(losses "$1")" = "$(losses "$2")" ] || fail "$(basename "$2"): samples or losses changed after stop"
}

# 1. mcuprof ctl through OpenOCD's Tcl RPC port (memory read while the core runs)
start_ocd_server
ep=127.0.0.1:$tcl_port
ctl() { "$MCUPROF" ctl "$@" --openocd "$ep" --elf "$elf"; }
# a mem_ap target never halts: --halt reads the live image
pull() { "$MCUPROF" pull --openocd "$ep" --elf "$elf" --halt --image "$work/$1.img" || fail "pull $1"; }
ctl stop >out.txt || fail "ctl stop"
grep -q '^stopped, ' out.txt || fail "ctl stop: $(cat out.txt)"
pull s1
wait_rounds $(($(rounds) + 3))
pull s2
stood_still s1.img s2.img
ctl status >status.txt || fail "ctl status"
same_status status.txt s2.img
grep -q '^  sampler  *answered a freeze in [0-9]* ms$' status.txt || { cat status.txt; fail "sampler"; }
ctl start >/dev/null || fail "ctl start"
wait_rounds $(($(rounds) + 3))
pull s3
[ "$(calls s3.img)" -ge $(($(calls s2.img) + 12000)) ] || fail "calls $(calls s2.img) -> $(calls s3.img) after start"
ctl stop >/dev/null
pull s4
ctl reset >out.txt || fail "ctl reset"
want="zeroed $(info_val s4.img samples_taken) samples and $(info_val s4.img arcs_used) arcs ($(calls s4.img) calls); generation 0 -> 1"
[ "$(head -1 out.txt)" = "$want" ] || fail "reset said '$(head -1 out.txt)', not '$want'"
pull s5
[ "$(info_val s5.img arcs_used)" = 0 ] && [ "$(info_val s5.img samples_taken)" = 0 ] && [ "$(calls s5.img)" = 0 ] &&
    [ "$(info_val s5.img generation)" = 1 ] || fail "reset: $(losses s5.img)"
ctl start >/dev/null
echo "ok   mcuprof ctl --openocd: stop held $(calls s2.img) calls over 3 rounds, start: $(calls s3.img), $want"
stop_ocd_server

# 2. the Tcl commands in OpenOCD (one OpenOCD at a time on the fixture)
start=$(info_val s5.img image_addr)
tcl() { # NAME COMMANDS...: one OpenOCD run, its log kept as NAME.log
    local name=$1 a=()
    shift
    for c in "$@"; do a+=(-c "$c"); done
    ocd -c "source $script" "${a[@]}" || { cat "$work/openocd.log" >&2; fail "openocd ($name) failed"; }
    cp "$work/openocd.log" "$work/$name.log"
}
log_val() { awk -v k="$2" '$1 == k { print $2; exit }' "$work/$1.log"; }

tcl stop "mcuprof_stop $start" "mcuprof_dump $work/t1.img $start"
expect_in stop.log "stopped, "
wait_rounds $(($(rounds) + 3))
tcl status "mcuprof_dump $work/t2.img $start" "mcuprof_status $start"
stood_still t1.img t2.img
expect_in status.log "  state                        0x0 (arcs off, sampling off)"
expect_in status.log "  sampler                      answered a freeze"
for k in generation samples_taken; do
    [ "$(log_val status $k)" = "$(info_val t2.img $k)" ] || fail "mcuprof_status $k $(log_val status $k), image $(info_val t2.img $k)"
done
[ "$(log_val status arcs_used)" = "$(info_val t2.img arcs_used)" ] || fail "mcuprof_status arcs_used"
expect_in status.log "stopped, $(info_val t2.img samples_taken) samples, $(info_val t2.img arcs_used) arcs"

tcl start "mcuprof_start $start"
expect_in start.log "running, "
wait_rounds $(($(rounds) + 3))
tcl reset "mcuprof_dump $work/t3.img $start" "mcuprof_stop $start" "mcuprof_reset $start" "mcuprof_dump $work/t4.img $start"
[ "$(calls t3.img)" -ge $(($(calls t2.img) + 12000)) ] || fail "mcuprof_start: calls $(calls t2.img) -> $(calls t3.img)"
[ "$(info_val t4.img arcs_used)" = 0 ] && [ "$(info_val t4.img samples_taken)" = 0 ] && [ "$(calls t4.img)" = 0 ] &&
    [ "$(info_val t4.img generation)" = 2 ] || fail "mcuprof_reset: $(losses t4.img)"
[ "$(bins t4.img)" = 0 ] || fail "mcuprof_reset: bins left"
expect_in reset.log "stopped, 0 samples, 0 arcs"

# another host's freeze (freeze_request 77, which the firmware acknowledges)
tcl frozen "mww [expr {$start + 188}] 77" "sleep 20" \
    "if {[catch {mcuprof_start $start} m]} {echo \"ERR \$m\"}" \
    "mcuprof_status $start" \
    "set mcuprof_force 1" "mcuprof_start $start" "mcuprof_status $start"
expect_in frozen.log "ERR mcuprof: the image is frozen by another host (freeze_request 0x4d, freeze_ack 0x4d): a pull in progress, or one that ended without releasing it; set mcuprof_force 1 to take it over"
expect_in frozen.log "  sampler                      not asked: another host holds a freeze"
expect_in frozen.log "mcuprof: warning: took over the freeze of another host (freeze_request 0x4d)"
expect_in frozen.log "  freeze_request               0"
grep -q '^running, ' frozen.log || { cat frozen.log; fail "mcuprof_start --force did not start"; }
echo "$test_name: all checks passed"
