#!/usr/bin/env bash
# pull_hostile.sh WORKDIR - `mcuprof pull` against servers that try to keep
# it waiting or to make it lose data: endless acknowledgements, replies a
# byte at a time (GDB and OpenOCD), endless console output after an
# interrupt, a reply that never ends, garbage after the freeze, a freeze
# never acknowledged, a drain that fails, and outputs that cannot be
# written. Each must end within --timeout plus a small margin with one
# error line, exit 1, no output file, and leave the target undrained and
# unfrozen (the fakes write their memory back to the image file).
# Tools from the environment: MCUPROF, FAKE_GDB, FAKE_OPENOCD, MAKE_IMAGE,
# ARCS_EQUAL.
set -euo pipefail
test_name=pull_hostile
work=$1
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
fake_workdir "$work"

# --timeout 0.5: every case must be over within 0.5 s plus a margin for a
# loaded machine (the fakes alone would keep it for minutes); one that
# leaves the target frozen, within two --timeouts more.
timeout=0.5
max_ms=2500

# untouched TARGET NAME: the served memory is the image as it was (nothing
# drained, no freeze request left behind)
untouched() { cmp -s image.img "$1" || fail "$2: the target's memory was changed"; }
# undrained TARGET NAME: the tables are as they were, generation 0. A
# server that never stops the core again keeps the client from withdrawing
# its freeze request: the firmware freezes, a second error line says so,
# and the command it names (or the next pull) releases it.
undrained() {
    "$ARCS_EQUAL" image.img "$1" >/dev/null && [ "$(info_json "$1" .counters.generation)" = 0 ] ||
        fail "$2: the target was drained"
}

gdb_case() { # MODE PATTERN [PULL ARGS...]
    local mode=$1 pattern=$2
    shift 2
    cp image.img served.img
    start_fake "$FAKE_GDB" port "$mode" served.img $addr
    # a server that never stops the core again keeps the client from
    # releasing its freeze: a second line says so, after the release was
    # tried for the two --timeouts a clean-up has (once more over a new
    # connection)
    local frozen= max_ms=$max_ms
    [ "$mode" != console ] || { frozen=1; max_ms=$((max_ms + 1000)); }
    frozen=$frozen max_ms=$max_ms expect_error "gdb-$mode" "127.0.0.1:$port: $pattern" -- \
        pull --gdb "127.0.0.1:$port" --address $addr --timeout $timeout "$@"
    if [ "$mode" = console ]; then undrained served.img "gdb-$mode"; else untouched served.img "gdb-$mode"; fi
}

gdb_case acks "65 acknowledgements ('+', '-') and no reply to 'qSupported'" --reset
gdb_case naks "65 acknowledgements ('+', '-') and no reply to 'qSupported'" --reset
gdb_case trickle "no complete answer within 500 ms while waiting for 'm20000010,100' ([0-9]* bytes came)" --reset
# a server busy flooding may also stop reading: then the client's next
# request times out instead, in the same time
gdb_case console "no complete answer within 500 ms while waiting for the stop reply after an interrupt\|the server accepts no data: timed out after 500 ms" --reset
gdb_case flood "no complete answer within 500 ms while waiting for 'qSupported'\|garbled reply to 'qSupported'" --reset
gdb_case late_garbage "garbage instead of a reply to 'm20000110,800'" --reset
gdb_case nofreeze "the target did not acknowledge the freeze within 500 ms" --reset

# OpenOCD's Tcl port: a result a byte every 50 ms, a result that never ends
for mode in trickle flood; do
    cp image.img served.img
    start_fake "$FAKE_OPENOCD" port served.img $addr running $mode
    case $mode in
    trickle) pattern="no complete answer within 500 ms while waiting for 'read_memory 0x20000010 8 256'" ;;
    flood) pattern="no complete answer within 500 ms\|longer than 1048576 bytes" ;;
    esac
    expect_error "openocd-$mode" "127.0.0.1:$port: $pattern" -- \
        pull --openocd "127.0.0.1:$port" --address $addr --timeout $timeout --reset
    untouched served.img "openocd-$mode"
done

# Outputs that cannot be written are refused before anything is read, so
# nothing is drained: the fake never even sees a client.
mkfifo fifo.out
chmod 0 fifo.out
: >ro.gmon
chmod 444 ro.gmon
for case in "nodir:/no/such/dir/gmon.out:cannot create the output. directory /no/such/dir" \
            "fifo:fifo.out:is a FIFO without write permission: refusing to write to it" \
            "readonly:ro.gmon:exists and is read-only" \
            "image:served.img:is both the --format gnu output and the raw image"; do
    IFS=: read -r name out_file pattern <<<"$case"
    cp image.img served.img
    extra=()
    [ "$name" = image ] && extra=(--image served.img)
    start_fake "$FAKE_GDB" port ok served.img $addr
    out_file=$out_file expect_error "output-$name" "$out_file: $pattern" -- \
        pull --gdb "127.0.0.1:$port" --address $addr --timeout $timeout --reset "${extra[@]}"
    untouched served.img "output-$name"
done
[ -p fifo.out ] || fail "the FIFO was replaced"
[ "$(stat -c %a ro.gmon)" = 444 ] && [ ! -s ro.gmon ] || fail "the read-only output was changed"

# Several outputs, the last one a full device: all or nothing, so neither
# the gmon.out nor the raw image is replaced, and nothing is drained.
echo "old gmon" >keep.gmon
echo "old image" >keep.img
cp image.img served.img
start_fake "$FAKE_GDB" port ok served.img $addr
out_file=keep.gmon expect_error "output-full" \
    "/dev/full: write error after 0 bytes: No space left on device; no other output was written$" -- \
    pull --gdb "127.0.0.1:$port" --address $addr --timeout $timeout --reset --image keep.img \
    --format gnu,json:/dev/full
untouched served.img "output-full"
[ "$(cat keep.gmon)" = "old gmon" ] && [ "$(cat keep.img)" = "old image" ] ||
    fail "output-full: an output was replaced"

# The drain fails after the snapshot was written: the output stays (it is
# the only copy of what was read), its lines say the files written, one
# error line says the drain failed, exit 1.
cp image.img served.img
start_fake "$FAKE_GDB" port drain_fail served.img $addr
rc=0
"$MCUPROF" pull --gdb "127.0.0.1:$port" --address $addr --timeout $timeout --reset \
    --image kept.img -o kept.gmon 2>err.txt || rc=$?
stop_fake
[ "$rc" = 1 ] || { cat err.txt; fail "drain-fail: exit $rc, expected 1"; }
[ "$(wc -l <err.txt)" = 3 ] && [ "$(head -n 2 err.txt)" = "$(wrote_raw_line kept.img)
$(wrote_line kept.gmon kept.img gnu)" ] &&
    tail -n 1 err.txt | grep -q "^mcuprof: error: the snapshot was saved, but draining the target failed.*E03" ||
    { cat err.txt; fail "drain-fail: message"; }
"$ARCS_EQUAL" image.img kept.img >/dev/null && [ -s kept.gmon ] || fail "drain-fail: the output is not the snapshot"
[ "$(info_json served.img .header.freeze_request)" = 0 ] || fail "drain-fail: freeze not released"
echo "ok   drain-fail: $(cat err.txt)"

# A good drain still works, and writes before it zeroes.
cp image.img served.img
start_fake "$FAKE_GDB" port ok served.img $addr
"$MCUPROF" pull --gdb "127.0.0.1:$port" --address $addr --timeout $timeout --reset --image good.img
stop_fake
"$ARCS_EQUAL" image.img good.img >/dev/null || fail "drain: the image written is not the snapshot"
[ "$(info_json served.img .counters.generation)" = 1 ] || fail "drain: the target was not drained"
echo "pull_hostile: all checks passed"
