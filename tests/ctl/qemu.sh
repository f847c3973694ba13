#!/usr/bin/env bash
# qemu.sh BOARD ELF OTHER_ELF WORKDIR - `mcuprof ctl` through QEMU's
# gdbstub on firmware (ctl_loop.c) that calls profiled functions without
# end and prints a heartbeat after each round of 4000 calls. With the
# freeze and with --halt: after `ctl stop` the arcs, samples_taken and
# every loss counter stay exactly as they were while the firmware goes on
# for rounds; after `ctl start` they grow again; `ctl reset` zeroes the
# tables and increments generation, and prints what it zeroed; `ctl status`
# says what `mcuprof info --json` of a pulled image holds. Then the bad inputs: an
# address without an image, the ELF of another build, this image with
# another build-id (served by the fake GDB server), no server.
# OTHER_ELF: firmware of another build for the same board.
# Tools from the environment: MCUPROF, ARCS_EQUAL, FAKE_GDB.
set -euo pipefail
board=$1
elf=$2
other=$3
work=$4
test_name=ctl.qemu.$board
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
: "${ARCS_EQUAL:?}" "${FAKE_GDB:?}"

rm -rf "$work"
mkdir -p "$work"
cd "$work"
start_qemu "$board" "$elf" "$work" "ctl_loop: running"
gdb=127.0.0.1:$qemu_port
ctl() { "$MCUPROF" ctl "$@" --gdb "$gdb" --elf "$elf"; }
# --halt: the image as it is, freeze_request and all (a frozen pull holds
# its own token there)
pull() { "$MCUPROF" pull --gdb "$gdb" --elf "$elf" --halt --image "$work/$1.img" || fail "pull $1"; }

ctl status >"$work/status0.txt" || fail "status"
grep -q '^running, [0-9]* samples, [0-9]* arcs$' "$work/status0.txt" || { cat "$work/status0.txt"; fail "status line"; }
grep -q '^  sampler  *answered a freeze in [0-9]* ms$' "$work/status0.txt" || { cat "$work/status0.txt"; fail "sampler"; }

for mode in freeze halt; do
    opt=
    [ "$mode" = halt ] && opt=--halt
    ctl stop $opt >"$work/stop-$mode.txt" || fail "stop $opt"
    grep -q '^stopped, [0-9]* samples, [0-9]* arcs$' "$work/stop-$mode.txt" || fail "stop $opt: $(cat "$work/stop-$mode.txt")"
    pull "$mode-1"
    r=$(rounds)
    wait_rounds $((r + 3))
    pull "$mode-2"
    "$ARCS_EQUAL" "$work/$mode-1.img" "$work/$mode-2.img" || fail "$mode: the arcs changed after stop (rounds $r..$(rounds))"
    [ "$(losses "$work/$mode-1.img")" = "$(losses "$work/$mode-2.img")" ] ||
        fail "$mode: samples or losses changed after stop: $(diff <(losses "$work/$mode-1.img") <(losses "$work/$mode-2.img") | tr '\n' ' ')"
    [ "$(info_val "$work/$mode-2.img" state)" = 0x0 ] || fail "$mode: state $(info_val "$work/$mode-2.img" state) after stop"
    # the values hold still: status must say exactly what info says
    ctl status $opt >"$work/status-$mode.txt" || fail "status $opt"
    same_status "$work/status-$mode.txt" "$work/$mode-2.img"
    grep -q "^stopped, $(info_val "$work/$mode-2.img" samples_taken) samples, $(info_val "$work/$mode-2.img" arcs_used) arcs$" \
        "$work/status-$mode.txt" || fail "$mode: status line $(head -1 "$work/status-$mode.txt")"

    ctl start $opt >"$work/start-$mode.txt" || fail "start $opt"
    grep -q '^running, ' "$work/start-$mode.txt" || fail "start $opt: $(cat "$work/start-$mode.txt")"
    r=$(rounds)
    wait_rounds $((r + 3))
    pull "$mode-3"
    c2=$(calls "$work/$mode-2.img")
    c3=$(calls "$work/$mode-3.img")
    # three whole rounds of 4000 calls at least
    [ "$c3" -ge $((c2 + 12000)) ] || fail "$mode: calls $c2 -> $c3 after start"
    [ "$(info_val "$work/$mode-3.img" samples_taken)" -gt "$(info_val "$work/$mode-2.img" samples_taken)" ] ||
        fail "$mode: no samples after start"
    [ "$(info_val "$work/$mode-3.img" state)" = 0x3 ] || fail "$mode: state $(info_val "$work/$mode-3.img" state) after start"
    echo "ok   $mode: stop held $(info_val "$work/$mode-2.img" samples_taken) samples and $c2 calls over 3 rounds; start: $c3 calls"
done

# reset: stopped first, so that what is zeroed holds still
for opt in "" --halt; do
    r=$(rounds)
    wait_rounds $((r + 2))
    ctl stop >/dev/null || fail "stop before reset"
    pull before
    gen=$(info_val "$work/before.img" generation)
    ctl reset $opt >"$work/reset.txt" || fail "reset $opt"
    want="zeroed $(info_val "$work/before.img" samples_taken) samples and $(info_val "$work/before.img" arcs_used) arcs ($(calls "$work/before.img") calls); generation $gen -> $((gen + 1))"
    [ "$(head -1 "$work/reset.txt")" = "$want" ] || fail "reset $opt said '$(head -1 "$work/reset.txt")', not '$want'"
    pull after
    for k in arcs_used samples_taken lost_arcs_table_full lost_calls_reentrant lost_calls_frozen \
        lost_samples_out_of_range lost_samples_saturated lost_samples_frozen; do
        [ "$(info_val "$work/after.img" $k)" = 0 ] || fail "reset $opt: $k $(info_val "$work/after.img" $k)"
    done
    [ "$(calls "$work/after.img")" = 0 ] || fail "reset $opt: calls left"
    [ "$(info_val "$work/after.img" generation)" = $((gen + 1)) ] || fail "reset $opt: generation"
    [ "$(bins "$work/after.img")" = 0 ] || fail "reset $opt: bins left"
    [ "$(calls "$work/before.img")" -ge 8000 ] || fail "reset $opt: too little to zero"
    echo "ok   reset $opt: $(head -1 "$work/reset.txt")"
    ctl start >/dev/null || fail "start after reset"
done
r=$(rounds)
wait_rounds $((r + 2))
pull again
[ "$(calls "$work/again.img")" -ge 8000 ] || fail "no calls after reset and start"

# bad inputs: one error line, exit 1
addr=$(info_val "$work/again.img" image_addr)
refuse no-image "$gdb: magic bytes" -- status --gdb "$gdb" --address $((addr + 0x100))
refuse other-build "not this firmware's image\\|does not match" -- stop --gdb "$gdb" --elf "$other"
# this very image with one byte of its build-id changed
cp "$work/again.img" "$work/bid.img"
setword "$work/bid.img" 56 $(($(word "$work/bid.img" 56) ^ 255))
start_fake "$FAKE_GDB" port ok "$work/bid.img" "$addr"
refuse build-id "127.0.0.1:$port: build-id [0-9a-f]* does not match $elf's" -- stop --gdb "127.0.0.1:$port" --elf "$elf"
start_fake "$FAKE_GDB" port ok "$work/bid.img" "$addr"
run_ctl stop --gdb "127.0.0.1:$port" --elf "$elf" --force
grep -q "^mcuprof: warning: 127.0.0.1:$port: build-id .* does not match" err.txt || { cat err.txt; fail "build-id --force: no warning"; }
[ "$(word "$work/bid.img" 184)" = 0 ] || fail "build-id --force: state $(word "$work/bid.img" 184) after stop"
echo "ok   build-id --force: $(cat out.txt)"
p=$(free_port)
refuse no-server "127.0.0.1:$p: cannot connect" -- stop --gdb "127.0.0.1:$p" --elf "$elf"
# the refusals wrote nothing: profiling still runs
ctl status >"$work/status-end.txt"
grep -q '^running, ' "$work/status-end.txt" || fail "left $(head -1 "$work/status-end.txt")"
echo "$test_name: all checks passed"
