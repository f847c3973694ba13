#!/usr/bin/env bash
# pull_owner.sh WORKDIR - `mcuprof pull` and another host's freeze, against
# the fake GDB server (fixtures/), which serves an image file as memory
# and writes it back when the client leaves: an image whose
# freeze_request is already set (a pull in progress elsewhere, or one that
# ended without its release) is refused in every mode (plain, --reset,
# --interval, --halt) with ctl's message, the image left exactly as it
# was and no output written; --force takes it over with ctl's warning,
# drains and releases it (with --halt it withdraws the request).
# Tools from the environment: MCUPROF, FAKE_GDB, FAKE_OPENOCD, MAKE_IMAGE, ARCS_EQUAL.
set -euo pipefail
test_name=pull.owner
work=$1
# shellcheck source=../ctl/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../ctl/lib.sh" # this lib.sh, word and setword
fake_workdir "$work" 0102030405060708090a0b0c0d0e0f1011121314

# Frozen by another host: freeze_request = freeze_ack = 0x1234.
cp image.img frozen.orig
setword frozen.orig 188 4660
setword frozen.orig 192 4660
message="127.0.0.1:[0-9]*: the image is frozen by another host (freeze_request 0x1234, freeze_ack 0x1234): a pull in progress, or one that ended without releasing it; --force takes it over$"
for mode in plain reset interval halt halt-reset; do
    case $mode in
    plain) opts=() ;;
    reset) opts=(--reset) ;;
    interval) opts=(--interval 0.05 --count 3) ;;
    halt) opts=(--halt) ;;
    halt-reset) opts=(--halt --reset) ;;
    esac
    cp frozen.orig frozen.img
    start_fake "$FAKE_GDB" port ok frozen.img $addr
    expect_error "frozen-$mode" "$message" -- pull --gdb "127.0.0.1:$port" --address $addr "${opts[@]}"
    cmp -s frozen.img frozen.orig || fail "frozen-$mode: the image was changed"
done

# --force: taken over with a warning, read, drained and released.
for mode in reset halt-reset; do
    case $mode in
    reset) opts=(--reset) ;;
    halt-reset) opts=(--halt --reset) ;;
    esac
    cp frozen.orig frozen.img
    start_fake "$FAKE_GDB" port ok frozen.img $addr
    rc=0
    "$MCUPROF" pull --gdb "127.0.0.1:$port" --address $addr "${opts[@]}" --force --image force.img 2>err.txt || rc=$?
    stop_fake
    [ "$rc" = 0 ] || { cat err.txt; fail "force-$mode: exit $rc"; }
    # the warning at once, then the line of the file written
    [ "$(cat err.txt)" = "mcuprof: warning: 127.0.0.1:$port: took over the freeze of another host (freeze_request 0x1234): a snapshot it is taking may not be consistent
$(wrote_raw_line force.img)" ] || { cat err.txt; fail "force-$mode: not the one warning and the line of force.img"; }
    "$ARCS_EQUAL" image.img force.img >/dev/null || fail "force-$mode: the pulled arcs are not the image's"
    [ "$(word frozen.img 188)" = 0 ] || fail "force-$mode: freeze_request $(word frozen.img 188) left behind"
    [ "$(info_json frozen.img .header.arcs_used)" = 0 ] && [ "$(info_json frozen.img .counters.generation)" = 1 ] ||
        fail "force-$mode: not drained"
    echo "ok   force-$mode: $(cat err.txt)"
done
echo "$test_name: all checks passed"
