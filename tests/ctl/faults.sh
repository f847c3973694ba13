#!/usr/bin/env bash
# faults.sh WORKDIR - `mcuprof ctl` against the fake GDB server
# (tests/pull/fixtures), which serves an image file as memory and writes
# it back when the client leaves, so every check reads what ctl left in
# target memory: an image frozen by another host is refused and left as it
# was (status only reports it), --force takes it over and releases it; a
# target whose sampler never answers is refused with a hint at --halt and
# its request withdrawn (status says it did not answer), --halt then
# works; memory without an image, no server, options that do not go
# together. (A build-id mismatch: qemu.sh, which has a real image.)
# Tools from the environment: MCUPROF, FAKE_GDB, FAKE_OPENOCD, MAKE_IMAGE, ARCS_EQUAL.
set -euo pipefail
test_name=ctl.faults
work=$1
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
fake_workdir "$work" 0102030405060708090a0b0c0d0e0f1011121314
head -c 8192 /dev/zero >zeros.img

ok() { # NAME: ran with exit 0; out.txt, err.txt hold its output
    echo "ok   $1: $(head -1 out.txt)"
}

# Frozen by another host: freeze_request = freeze_ack = 0x1234.
cp image.img frozen.img
setword frozen.img 188 4660
setword frozen.img 192 4660
cp frozen.img frozen.orig
for action in start stop reset; do
    start_fake "$FAKE_GDB" port ok frozen.img $addr
    refuse "frozen-$action" "127.0.0.1:$port: the image is frozen by another host (freeze_request 0x1234, freeze_ack 0x1234): .*--force takes it over" \
        -- $action --gdb "127.0.0.1:$port" --address $addr
    cmp -s frozen.img frozen.orig || fail "frozen-$action: the image was changed"
done
start_fake "$FAKE_GDB" port ok frozen.img $addr
run_ctl status --gdb "127.0.0.1:$port" --address $addr
grep -q '^  sampler  *not asked: another host holds a freeze$' out.txt && grep -q '^  freeze_request  *4660$' out.txt ||
    { cat out.txt; fail "status of a frozen image"; }
cmp -s frozen.img frozen.orig || fail "status changed the frozen image"
ok frozen-status
start_fake "$FAKE_GDB" port ok frozen.img $addr
run_ctl stop --gdb "127.0.0.1:$port" --address $addr --force
grep -q "^mcuprof: warning: 127.0.0.1:$port: took over the freeze of another host (freeze_request 0x1234)" err.txt ||
    { cat err.txt; fail "--force: no warning"; }
grep -q '^stopped, ' out.txt || fail "--force: $(cat out.txt)"
[ "$(word frozen.img 184)" = 0 ] && [ "$(word frozen.img 188)" = 0 ] && [ "$(word frozen.img 192)" = 0 ] ||
    fail "--force: state $(word frozen.img 184), freeze_request $(word frozen.img 188), freeze_ack $(word frozen.img 192)"
ok frozen-force

# A sampler that never answers: refused, the request withdrawn, nothing
# changed; status says so; --halt works without it.
cp image.img silent.img
start_fake "$FAKE_GDB" port nofreeze silent.img $addr
refuse no-answer "127.0.0.1:$port: the target did not acknowledge the freeze within 300 ms .*or use --halt" \
    -- stop --gdb "127.0.0.1:$port" --address $addr --timeout 0.3
[ "$(word silent.img 188)" = 0 ] || fail "no-answer: freeze_request $(word silent.img 188) left behind"
cmp -s silent.img image.img || fail "no-answer: the image was changed"
start_fake "$FAKE_GDB" port nofreeze silent.img $addr
run_ctl status --gdb "127.0.0.1:$port" --address $addr --timeout 0.3
grep -q '^  sampler  *did not answer: .*did not acknowledge the freeze within 300 ms' out.txt ||
    { cat out.txt; fail "status: sampler"; }
[ "$(word silent.img 188)" = 0 ] || fail "status: freeze_request $(word silent.img 188) left behind"
ok no-answer-status
start_fake "$FAKE_GDB" port nofreeze silent.img $addr
run_ctl reset --gdb "127.0.0.1:$port" --address $addr --halt
[ "$(head -1 out.txt)" = "zeroed 65006 samples and 2 arcs (7005 calls); generation 0 -> 1" ] || fail "reset --halt: $(cat out.txt)"
"$MCUPROF" info --json silent.img >info.json
jq -e '.header.arcs_used == 0 and .counters.generation == 1 and ([.ranges[].samples] | add) == 0' info.json >/dev/null ||
    { cat info.json; fail "reset --halt: not zeroed"; }
ok no-answer-reset-halt

# Memory without an image, nothing listening, options that do not go together.
start_fake "$FAKE_GDB" port ok zeros.img $addr
refuse no-image "127.0.0.1:$port: magic bytes 00 00 00 00" -- stop --gdb "127.0.0.1:$port" --address $addr
p=$(free_port)
refuse no-server "127.0.0.1:$p: cannot connect" -- status --gdb "127.0.0.1:$p" --address $addr
rc=0
"$MCUPROF" ctl stop --halt --address $addr --gdb "127.0.0.1:$p" 2>err.txt || rc=$?
[ "$rc" = 2 ] && grep -q '^mcuprof: error: ctl: stop --halt needs --elf' err.txt || { cat err.txt; fail "--halt without --elf"; }
rc=0
"$MCUPROF" ctl pause --address $addr 2>err.txt || rc=$?
[ "$rc" = 2 ] && grep -q "^mcuprof: error: ctl: unknown action 'pause'" err.txt || { cat err.txt; fail "unknown action"; }

echo "$test_name: all checks passed"
