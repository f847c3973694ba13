#!/usr/bin/env bash
# pull_deadline.sh WORKDIR - the bounds of `pull` and `ctl` in time:
# --timeout and --deadline out of range are refused when parsed (one line,
# exit 2); against a server slow on every answer (each answer within
# --timeout, so no single answer times out), the whole command ends at its
# deadline (--deadline, by default 10 times --timeout) plus at most two
# --timeouts for releasing the freeze, with one line naming the deadline,
# exit 1, no output, and the target unfrozen.
# Tools from the environment: MCUPROF, FAKE_GDB, FAKE_OPENOCD, MAKE_IMAGE,
# ARCS_EQUAL.
set -euo pipefail
test_name=pull_deadline
work=$1
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
fake_workdir "$work"

# refused CMD PATTERN ARGS...: exit 2, exactly one line
refused() {
    local name=$1 pattern=$2 rc=0
    shift 2
    "$MCUPROF" "$@" >/dev/null 2>err.txt || rc=$?
    [ "$rc" = 2 ] || { cat err.txt; fail "$name: exit $rc, expected 2"; }
    [ "$(wc -l <err.txt)" = 1 ] && grep -qx "mcuprof: error: $pattern" err.txt ||
        { cat err.txt; fail "$name: message"; }
    echo "ok   $name: $(cat err.txt)"
}
for cmd in pull ctl; do
    op=()
    [ "$cmd" = ctl ] && op=(status)
    for v in 0 -1 nan inf 1e9 0.001 3601 5s ''; do
        refused "$cmd --timeout '$v'" "$cmd: --timeout '$v' is not a number of seconds from 0.01 to 3600" \
            "$cmd" "${op[@]}" --address $addr --timeout "$v"
    done
    for v in 0 -2 nan 86401; do
        refused "$cmd --deadline '$v'" "$cmd: --deadline '$v' is not a number of seconds from 0.01 to 86400" \
            "$cmd" "${op[@]}" --address $addr --deadline "$v"
    done
    refused "$cmd --deadline < --timeout" \
        "$cmd: --deadline 1 is shorter than --timeout 2: one answer may take longer than the whole command" \
        "$cmd" "${op[@]}" --address $addr --timeout 2 --deadline 1
done

# slow CASE LIMIT_S TIMEOUT_S PATTERN -- MCUPROF ARGS: served by the fake
# started last, every answer FAKE_DELAY_MS late; exit 1, one line matching
# PATTERN, within LIMIT_S + 2 * TIMEOUT_S (+ 1.5 s for a loaded
# machine), no output, the served image not frozen.
slow() {
    local name=$1 limit=$2 tmo=$3 pattern=$4 rc=0 t0 ms max
    shift 5
    rm -f out.gmon
    t0=$(date +%s%N)
    "$MCUPROF" "$@" 2>err.txt >/dev/null || rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    stop_fake
    max=$(awk -v l="$limit" -v t="$tmo" 'BEGIN { printf "%d", (l + 2 * t) * 1000 + 1500 }')
    [ "$rc" = 1 ] || { cat err.txt; fail "$name: exit $rc, expected 1"; }
    [ "$(wc -l <err.txt)" = 1 ] && grep -q "^mcuprof: error: 127.0.0.1:$port: $pattern" err.txt ||
        { cat err.txt; fail "$name: message"; }
    [ "$ms" -le "$max" ] || fail "$name: took $ms ms, more than $max"
    ls out.gmon* >/dev/null 2>&1 && fail "$name: output file left behind"
    [ "$(info_json served.img .header.freeze_request)" = 0 ] || fail "$name: the target was left frozen"
    echo "ok   $name (${ms} ms, bound $max ms): $(cat err.txt)"
}

# Every answer takes 300 ms, each well within --timeout 0.45: a pull
# needs about eighteen answers, so without a deadline for the whole
# command it would take 5.4 s (as a server answering every request in
# 1.8 s keeps a pull with --timeout 2 for 30 s). The default deadline, 10
# times --timeout, is 4.5 s.
export FAKE_DELAY_MS=300
cp image.img served.img
start_fake "$FAKE_GDB" port ok served.img $addr
slow gdb-default-deadline 4.5 0.45 "the deadline (4.5 s, --deadline) passed\( \|$\)" -- \
    pull --gdb "127.0.0.1:$port" --address $addr --timeout 0.45 -o out.gmon

cp image.img served.img
start_fake "$FAKE_GDB" port ok served.img $addr
slow gdb-deadline 2 0.45 "the deadline (2 s, --deadline) passed\( \|$\)" -- \
    pull --gdb "127.0.0.1:$port" --address $addr --timeout 0.45 --deadline 2 -o out.gmon

cp image.img served.img
start_fake "$FAKE_OPENOCD" port served.img $addr running
slow openocd-deadline 1 0.45 "the deadline (1 s, --deadline) passed\( \|$\)" -- \
    pull --openocd "127.0.0.1:$port" --address $addr --timeout 0.45 --deadline 1 -o out.gmon

cp image.img served.img
start_fake "$FAKE_GDB" port ok served.img $addr
slow ctl-deadline 1.5 0.45 "the deadline (1.5 s, --deadline) passed\( \|$\)" -- \
    ctl stop --gdb "127.0.0.1:$port" --address $addr --timeout 0.45 --deadline 1.5

# A deadline long enough: a slow server serves the whole pull.
export FAKE_DELAY_MS=50
cp image.img served.img
start_fake "$FAKE_GDB" port ok served.img $addr
"$MCUPROF" pull --gdb "127.0.0.1:$port" --address $addr --timeout 0.45 --image whole.img
stop_fake
"$ARCS_EQUAL" image.img whole.img >/dev/null || fail "slow-whole: the image pulled is not the target's"
[ "$(info_json served.img .header.freeze_request)" = 0 ] || fail "slow-whole: the target was left frozen"
echo "pull_deadline: all checks passed"
