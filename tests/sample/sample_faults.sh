#!/usr/bin/env bash
# sample_faults.sh ELF WORKDIR - `mcuprof sample`'s bad cases on the
# Cortex-M3 board (probe_split.elf under QEMU): absurd options; an ELF
# with no code; a server that never answers (--timeout); the link dying
# in the middle of the window (one error line, nothing written); Ctrl-C
# ending the window early (a whole output, the target left running and
# unfrozen); firmware without the runtime (the histogram alone, a note);
# -q (nothing said).
# Tools from the environment: MCUPROF, GPROF, FAKE_GDB (tests/pull).
set -euo pipefail
elf=$1
work=$2
test_name=sample.faults
# shellcheck source=../pull/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../pull/lib.sh"
: "${MCUPROF:?}" "${GPROF:?}" "${FAKE_GDB:?}"

rm -rf "$work"
mkdir -p "$work"
MCUPROF_QEMU_TIMEOUT=110 # long windows on a loaded host
cd "$work"

# usage: exit 2, one line naming the option, nothing written
usage() { # PATTERN ARGS...
    local pattern=$1 rc=0
    shift
    "$MCUPROF" sample "$@" -o out.gmon 2>err || rc=$?
    [ "$rc" = 2 ] || fail "sample $* exited $rc, not 2"
    [ "$(wc -l <err)" = 1 ] && grep -q -- "$pattern" err || fail "sample $*: $(cat err)"
    [ ! -e out.gmon ] || fail "sample $* wrote an output"
}
usage "--duration '0'" --elf "$elf" --duration 0
usage "--duration '1e9'" --elf "$elf" --duration 1e9
usage "--duration 'soon'" --elf "$elf" --duration soon
usage "--rate '0'" --elf "$elf" --rate 0
usage "--method 'sometimes'" --elf "$elf" --method sometimes
usage "--batch '0'" --elf "$elf" --batch 0
usage "give the firmware" --gdb 127.0.0.1:1

# failures: exit 1, one error line, nothing written
expect_fail() { # PATTERN ARGS...
    local pattern=$1 rc=0
    shift
    rm -f out.gmon w.start.img w.end.img
    "$MCUPROF" sample "$@" -o out.gmon 2>err || rc=$?
    [ "$rc" = 1 ] || { cat err >&2; fail "sample $* exited $rc, not 1"; }
    [ "$(grep -c '^mcuprof: error:' err)" = 1 ] && grep -q -- "$pattern" err ||
        { cat err >&2; fail "sample $*: not one error line matching '$pattern'"; }
    [ ! -e out.gmon ] && [ ! -e w.start.img ] && [ ! -e w.end.img ] || fail "sample $* left an output"
}

# An ELF with no executable section: refused before connecting.
as=${GPROF%gprof}as
printf '.data\n.word 1\n' | "$as" -o data.o
expect_fail "data.o: no executable section" --gdb 127.0.0.1:1 --elf data.o

# A server that accepts and never answers (tests/pull's fake GDB server):
# --timeout ends it.
start_fake "$FAKE_GDB" port silent data.o 0x20000000
t0=$(date +%s%N)
expect_fail "no answer within 500 ms" --gdb "127.0.0.1:$port" --elf "$elf" --timeout 0.5 --deadline 20
ms=$((($(date +%s%N) - t0) / 1000000))
stop_fake
# well before the deadline, however loaded the host
[ "$ms" -lt 10000 ] || fail "a mute server held sample for $ms ms"

start_qemu mps2-an385 "$elf" "$work" "probe_split: ready"
gdb=127.0.0.1:$qemu_port

# Ctrl-C in the middle of a 30 s window: the window ends, the last image
# is taken, the output is whole.
"$MCUPROF" sample --gdb "$gdb" --elf "$elf" --timeout 30 --duration 30 -o int.gmon --images int 2>int.err &
pid=$!
wait_console int.err "sampling .*(Ctrl-C ends the window)" 60 || fail "the window never began"
sleep 1
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
cat int.err
[ "$rc" = 0 ] || fail "sample after SIGINT exited $rc"
grep -q 'note: .*SIGINT ended the window after' int.err || fail "no note of the signal"
grep -q '^mcuprof: sample: [0-9]* samples.*exact arcs of the window merged' int.err || fail "no summary after SIGINT"
"$GPROF" -b -p "$elf" int.gmon | grep -q ' thread_work$' || fail "gprof finds no thread_work in int.gmon"
[ -s int.start.img ] && [ -s int.end.img ] || fail "no images after SIGINT"
# ... and the target runs on, unfrozen
"$MCUPROF" pull --gdb "$gdb" --elf "$elf" --halt -i after.img
[ "$(info_json after.img .header.freeze_request)" = 0 ] || fail "left frozen after SIGINT"
[ "$(info_json after.img .counters.samples_taken)" -gt "$(info_json int.end.img .counters.samples_taken)" ] ||
    fail "the core did not run on after SIGINT"

# Firmware without the runtime (its symbols stripped from the ELF): the
# histogram alone, with a note; --no-arcs the same on purpose.
objcopy=${GPROF%gprof}objcopy
"$objcopy" --strip-symbol=__mcuprof_start --strip-symbol=__mcuprof_end "$elf" bare.elf
"$MCUPROF" sample --gdb "$gdb" --elf bare.elf --timeout 30 --samples 100 --duration 20 -o bare.gmon 2>bare.err ||
    { cat bare.err >&2; fail "sample of bare.elf failed"; }
grep -q 'note: bare.elf: no mcuprof runtime' bare.err || fail "no note about the missing runtime: $(cat bare.err)"
grep -q 'histogram only, no arcs' bare.err || fail "summary does not say histogram only"
# its line: the 100 samples, those outside the code lost, no arc
outside=$(sed -n 's/.*; \([0-9]*\) outside the code;.*/\1/p' bare.err)
grep -qxF "$(wrote_line_losses bare.gmon $((100 - outside)) 0 "$(lost_words lost_samples_out_of_range "$outside")" gnu)" \
    bare.err || fail "no line for bare.gmon: $(cat bare.err)"
"$GPROF" -b -p bare.elf bare.gmon | grep -q ' thread_work$' || fail "gprof finds no thread_work in bare.gmon"
"$MCUPROF" sample --gdb "$gdb" --elf "$elf" --timeout 30 --samples 20 --duration 20 --no-arcs --format json -o noarcs.json \
    -q 2>noarcs.err || { cat noarcs.err >&2; fail "sample --no-arcs failed"; }
# -q: not a word on stderr (no window line, no file line, no summary)
[ ! -s noarcs.err ] || fail "sample -q said: $(cat noarcs.err)"
[ "$(jq '.arcs | length' noarcs.json)" = 0 ] || fail "--no-arcs wrote arcs"
[ "$(jq '.counters.samples_taken' noarcs.json)" -gt 0 ] || fail "--no-arcs took no sample"

# The link dies in the middle of the window (QEMU quits: its last word may
# be an exit reply or the closed socket): one error line, no output.
"$MCUPROF" sample --gdb "$gdb" --elf "$elf" --timeout 30 --duration 30 -o out.gmon --images w 2>err &
pid=$!
wait_console err "sampling .*(Ctrl-C ends the window)" 60 || fail "the window never began"
sleep 1
stop_qemu
rc=0
wait "$pid" || rc=$?
cat err
[ "$rc" = 1 ] || fail "sample exited $rc when the link died"
[ "$(grep -c '^mcuprof: error:' err)" = 1 ] || fail "not one error line when the link died"
grep -qE 'closed the connection|the program has exited' err || fail "the error does not say the link closed or the program exited"
[ ! -e out.gmon ] && [ ! -e w.start.img ] && [ ! -e w.end.img ] || fail "output written after the link died"
echo "sample.faults: all checks passed"
