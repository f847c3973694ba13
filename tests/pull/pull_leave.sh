#!/usr/bin/env bash
# pull_leave.sh WORKDIR - whatever ends `pull` or `ctl` while the target is
# frozen, the freeze is released, or one line says that the target is left
# frozen, where (freeze_request's address, the token) and the command that
# releases it:
#   - the server dies right after the freeze is acknowledged (GDB, OpenOCD;
#     pull and ctl): the freeze stays, the line says so, and the command it
#     names releases it;
#   - the server drops the connection but takes a new one: mcuprof
#     reconnects once and releases the freeze (a warning says so);
#   - SIGINT, SIGTERM, SIGHUP before the freeze and while frozen: the
#     command stops at once (one line, exit 128 + the signal), releases
#     the freeze, writes nothing; a second SIGINT during that release
#     skips it and the line says how the target may be left;
#   - pull --interval: a signal between pulls ends the run, one during a
#     pull stops that pull before its drain (exit 0, the output holds the
#     pulls drained, the freeze released);
#   - the output cannot be written (the file size limit, as a full disk):
#     the freeze is released and nothing is drained.
# The fakes write the memory they serve back to their image file when the
# client leaves; they touch marks (FAKE_MARK) when a client connects, a
# freeze is acknowledged and its release is written, for the signals.
# Tools from the environment: MCUPROF, FAKE_GDB, FAKE_OPENOCD, MAKE_IMAGE,
# ARCS_EQUAL.
set -euo pipefail
test_name=pull_leave
work=$1
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
fake_workdir "$work"
request_at=0x200000cc # $addr + offsetof(struct mcuprof_header, freeze_request)

freeze_request() { printf '0x%08x' "$(info_json served.img .header.freeze_request)"; }
# run_tool NAME RC ARGS...: run mcuprof, expect exit RC (stderr in err.txt)
run_tool() {
    local name=$1 want=$2 rc=0
    shift 2
    "$MCUPROF" "$@" >out.txt 2>err.txt || rc=$?
    [ "$rc" = "$want" ] || { cat err.txt; fail "$name: exit $rc, expected $want"; }
}
# line NAME N TEXT: line N of err.txt is exactly TEXT
line() {
    [ "$(sed -n "$2p" err.txt)" = "$3" ] || { cat err.txt; echo "expected line $2: $3" >&2; fail "$1: message"; }
}
nlines() { [ "$(wc -l <err.txt)" = "$2" ] || { cat err.txt; fail "$1: not $2 lines"; }; }
frozen_line() { # ENDPOINT_OPTION PORT WHO TOKEN
    echo "mcuprof: error: 127.0.0.1:$2: the target is left frozen: freeze_request at $request_at holds $4" \
         "(this $3's request; nothing is recorded until it is 0); release it with: mcuprof ctl release" \
         "--$1 127.0.0.1:$2 --address $addr"
}

# frozen_then LINK WHO DIE: pull or ctl stop (WHO) over LINK, against a
# fake that ends the connection (FAKE_DIE) once the target is frozen; sets
# read_what, the request the line names (the wait for the freeze's answer
# reads freeze_request and freeze_ack together)
frozen_then() {
    if [ $1 = gdb ]; then
        FAKE_DIE=$3 start_fake "$FAKE_GDB" port ok served.img $addr
        read_what="'m200000cc,8'"
    else
        FAKE_DIE=$3 start_fake "$FAKE_OPENOCD" port served.img $addr running
        read_what="'read_memory 0x200000cc 32 2'"
    fi
    local args=(--$1 "127.0.0.1:$port" --address $addr --timeout 0.5)
    if [ $2 = pull ]; then run_tool "$name" 1 pull "${args[@]}" -o out.gmon; else run_tool "$name" 1 ctl stop "${args[@]}"; fi
    stop_fake
}

# --- the server dies once the target is frozen (exit), or drops the
# connection and takes a new one (drop) -------------------------------------
for die in exit drop; do
  for link in gdb openocd; do
    for who in pull ctl; do
        # ctl shares the link's code with pull: over GDB is enough
        [ $link-$who != openocd-ctl ] || continue
        name="$link-$who-$die"
        cp image.img served.img
        frozen_then $link $who $die
        nlines "$name" 2
        line "$name" 1 "mcuprof: error: 127.0.0.1:$port: the server closed the connection while sending $read_what"
        ls out.gmon* >/dev/null 2>&1 && fail "$name: output written"
        echo "ok   $name: $(tail -1 err.txt)"
        if [ $die = drop ]; then
            grep -q "^mcuprof: warning: 127.0.0.1:$port: the connection was lost while the target was frozen: reconnected and released the freeze (freeze_request 0x[0-9a-f]\{8\})$" err.txt ||
                { cat err.txt; fail "$name: warning"; }
            [ "$(freeze_request)" = 0x00000000 ] || fail "$name: left frozen"
            continue
        fi
        token=$(freeze_request)
        [ "$token" != 0x00000000 ] || fail "$name: the fake left no freeze"
        line "$name" 2 "$(frozen_line $link "$port" $who "$token")"
        # the command the line names, run against the server come back
        cmd=$(sed -n 's/.*release it with: mcuprof //p' err.txt)
        if [ $link = gdb ]; then start_fake "$FAKE_GDB" port ok served.img $addr
        else start_fake "$FAKE_OPENOCD" port served.img $addr running; fi
        read -r -a words <<<"$(sed "s/127\.0\.0\.1:[0-9]*/127.0.0.1:$port/" <<<"$cmd")"
        run_tool "$name-release" 0 "${words[@]}"
        stop_fake
        grep -qx "released the freeze $token (freeze_ack was $token)" out.txt || { cat out.txt; fail "$name-release: output"; }
        [ "$(freeze_request)" = 0x00000000 ] || fail "$name-release: still frozen"
        "$ARCS_EQUAL" image.img served.img >/dev/null || fail "$name-release: the tables changed"
    done
  done
done

# --- signals ---------------------------------------------------------------
# Every answer 50 ms late (the release 2 s late where a second signal must
# land while it is awaited), so the command is mid-exchange when a mark
# appears and the signal is sent.
export FAKE_DELAY_MS=50 FAKE_MARK=$PWD/mark
wait_mark() { # NAME MARK
    local i
    for i in $(seq 500); do [ -e "mark.$2" ] && return 0; sleep 0.01; done
    fail "$1: no '$2' mark from the fake"
}
# signal_case NAME MARK SIGNAL... -- MCUPROF ARGS: the signals, each when
# its mark appears; sets rc, ms (from the first signal to the exit)
signal_case() {
    local name=$1 marks=() sigs=() pid t0 k
    shift
    while [ "$1" != -- ]; do marks+=("$1"); sigs+=("$2"); shift 2; done
    shift
    rm -f mark.* out.gmon
    cp image.img served.img
    start_fake "$FAKE_GDB" port ok served.img $addr
    "$MCUPROF" "$@" --gdb "127.0.0.1:$port" --address $addr --timeout 1 >out.txt 2>err.txt &
    pid=$!
    for k in "${!marks[@]}"; do
        wait_mark "$name" "${marks[k]}"
        [ -n "${FAKE_DELAY_MS:-}" ] || sleep 0.5
        [ "$k" = 0 ] && t0=$(date +%s%N)
        kill -"${sigs[k]}" $pid
    done
    rc=0
    wait $pid || rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    stop_fake
}
for s in INT:130:connected INT:130:frozen TERM:143:frozen HUP:129:frozen; do
    IFS=: read -r sig want mark <<<"$s"
    {
        name="pull-SIG$sig-$mark"
        signal_case "$name" $mark $sig -- pull --reset -o out.gmon
        [ "$rc" = "$want" ] || { cat err.txt; fail "$name: exit $rc, expected $want"; }
        nlines "$name" 1
        grep -q "^mcuprof: error: 127.0.0.1:$port: interrupted (SIG$sig) while waiting for " err.txt ||
            { cat err.txt; fail "$name: message"; }
        # at once: the release is a handful of answers of 150 ms
        [ "$ms" -le 2500 ] || fail "$name: took $ms ms after the signal"
        [ "$(freeze_request)" = 0x00000000 ] || fail "$name: left frozen"
        "$ARCS_EQUAL" image.img served.img >/dev/null || fail "$name: drained"
        ls out.gmon* >/dev/null 2>&1 && fail "$name: output written"
        echo "ok   $name ($ms ms): $(cat err.txt)"
    }
done

# A second SIGINT while the freeze is being released skips the rest: the
# 0 was sent, its answer never came, and the line says so.
name=pull-SIGINT-twice
FAKE_RELEASE_MS=2000 signal_case $name frozen INT release INT -- pull -o out.gmon
[ "$rc" = 130 ] || { cat err.txt; fail "$name: exit $rc"; }
nlines $name 2
grep -q "^mcuprof: error: 127.0.0.1:$port: interrupted (SIGINT) while waiting for " err.txt || { cat err.txt; fail "$name: message"; }
line $name 2 "mcuprof: error: 127.0.0.1:$port: the target may be left frozen: freeze_request at $request_at holds $(sed -n 's/.* holds \(0x[0-9a-f]*\) .*/\1/p' err.txt) (this pull's request; nothing is recorded until it is 0) unless the 0 written to it, never confirmed, arrived; release it with: mcuprof ctl release --gdb 127.0.0.1:$port --address $addr"
echo "ok   $name: $(tail -1 err.txt)"

name=ctl-SIGTERM-frozen
signal_case $name frozen TERM -- ctl stop
[ "$rc" = 143 ] || { cat err.txt; fail "$name: exit $rc"; }
nlines $name 1
[ "$(freeze_request)" = 0x00000000 ] || fail "$name: left frozen"
[ "$(info_json served.img .header.state)" = "$(info_json image.img .header.state)" ] || fail "$name: state changed"
echo "ok   $name: $(cat err.txt)"

# --interval: between pulls a signal ends the run, with the output
# written. A prompt server: the pull is over half a second after its
# release was written, and the next one is 30 s away.
unset FAKE_DELAY_MS
name=interval-SIGINT-between
signal_case $name release INT -- pull --interval 30 -o out.gmon
[ "$rc" = 0 ] || { cat err.txt; fail "$name: exit $rc, expected 0"; }
[ -s out.gmon ] && [ "$(info_json served.img .counters.generation)" = 1 ] || fail "$name: the pull was not saved and drained"
[ "$(freeze_request)" = 0x00000000 ] || fail "$name: left frozen"
[ "$ms" -le 2500 ] || fail "$name: took $ms ms after the signal"
echo "ok   $name ($ms ms)"

# --interval: a signal during a later pull stops it before its drain; the
# output holds the pulls before (the line of the first says it was
# written), a note says so, exit 0.
export FAKE_DELAY_MS=50
name=interval-SIGINT-during
rm -f mark.* out.gmon
cp image.img served.img
start_fake "$FAKE_GDB" port ok served.img $addr
"$MCUPROF" pull --gdb "127.0.0.1:$port" --address $addr --timeout 1 --interval 0.2 -o out.gmon 2>err.txt &
pid=$!
wait_mark $name release
rm -f mark.frozen
wait_mark $name frozen
kill -INT $pid
rc=0
wait $pid || rc=$?
stop_fake
[ "$rc" = 0 ] || { cat err.txt; fail "$name: exit $rc, expected 0"; }
nlines $name 2
line $name 1 "$(wrote_line out.gmon image.img gnu | sed 's/^mcuprof: /&pull 1: /')"
line $name 2 "mcuprof: note: 127.0.0.1:$port: SIGINT stopped pull 2 before it drained anything: the output holds the 1 before"
[ -s out.gmon ] && [ "$(info_json served.img .counters.generation)" = 1 ] || fail "$name: not one pull saved and drained"
[ "$(freeze_request)" = 0x00000000 ] || fail "$name: left frozen"
echo "ok   $name: $(cat err.txt)"
unset FAKE_MARK FAKE_DELAY_MS

# --- the output cannot be written: released, nothing drained ---------------
name=output-too-large
cp image.img served.img
start_fake "$FAKE_GDB" port ok served.img $addr
rc=0
(ulimit -f 1 && exec "$MCUPROF" pull --gdb "127.0.0.1:$port" --address $addr --timeout 0.5 --reset --image out.img) 2>err.txt || rc=$?
stop_fake
[ "$rc" = 1 ] || { cat err.txt; fail "$name: exit $rc, expected 1"; }
nlines $name 1
grep -q "^mcuprof: error: out.img: " err.txt || { cat err.txt; fail "$name: message"; }
[ "$(freeze_request)" = 0x00000000 ] || fail "$name: left frozen"
"$ARCS_EQUAL" image.img served.img >/dev/null || fail "$name: drained"
ls out.img* >/dev/null 2>&1 && fail "$name: output left behind"
echo "ok   $name: $(cat err.txt)"
echo "pull_leave: all checks passed"
