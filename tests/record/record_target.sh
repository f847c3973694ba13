#!/usr/bin/env bash
# record_target.sh ELF WORK - `mcuprof record --gdb HOST:PORT --duration 1`
# on a running target: pull_idle.elf under QEMU started with its gdbstub
# (tests/pull/lib.sh), which has done its known work, dumped it through
# semihosting and idles with its sampler on:
#   exit 0; the summary names the link and "pulled after --duration"; its
#     samples and arcs are those of the image written (--image)
#   the arcs are exactly the firmware's own dump's, and exactly those
#     `mcuprof pull` takes right after (arcs_equal)
#   the core runs on after record (a later pull counts more samples)
#   without --duration, Ctrl-C ends the run: pulled, arcs as above
#   --reset: QEMU's gdbstub has no reset command: one error line, no
#     output, the core usable after
#   the target gone during --duration: exit 1, one error line, no output
# Tools from the environment: MCUPROF, ARCS_EQUAL; and jq.
set -euo pipefail
elf=$1
work=$2
test_name=record.target
record_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$record_dir/../pull/lib.sh"
. "$record_dir/lib.sh"
: "${ARCS_EQUAL:?}"

rm -rf "$work"
mkdir -p "$work"
start_qemu mps2-an385 "$elf" "$work" "pull_idle: ready"
[ -s "$work/mcuprof.img" ] || fail "no semihosting dump"
gdb=127.0.0.1:$qemu_port
cd "$work"

rc=0
"$MCUPROF" record "$elf" --gdb "$gdb" --duration 1 --image rec.img -o rec.gmon >out.txt 2>err.txt || rc=$?
[ "$rc" = 0 ] || { cat err.txt >&2; fail "exit $rc"; }
summary_fields err.txt
[ "$WHERE" = "gdb $gdb" ] || fail "where: '$WHERE'"
[ "$ENDED" = "pulled after --duration" ] || fail "ended: '$ENDED'"
awk -v s="$SECONDS_RUN" 'BEGIN { exit !(s >= 1 && s < 10) }' || fail "ran $SECONDS_RUN s"
[ "$SAMPLES" = "$(image_samples rec.img)" ] || fail "samples $SAMPLES, the image $(image_samples rec.img)"
[ "$ARCS" = "$(info_json rec.img .header.arcs_used)" ] || fail "arcs $ARCS"
grep -q "^flat profile" out.txt || fail "no flat profile"
echo "ok   summary: $WHERE, ran $SECONDS_RUN s, $ENDED, $SAMPLES samples, $ARCS arcs, $LOST"

"$ARCS_EQUAL" mcuprof.img rec.img || fail "record's arcs differ from the firmware's dump"
"$MCUPROF" pull --gdb "$gdb" --elf "$elf" --image pull.img -o pull.gmon || fail "pull after record failed"
"$ARCS_EQUAL" pull.img rec.img || fail "record's arcs differ from pull's"
[ "$(image_samples pull.img)" -gt "$SAMPLES" ] || fail "the core did not run on after record"
echo "ok   arcs exactly the dump's and pull's; the core ran on"

# no --duration: the run ends at Ctrl-C, and is pulled
rc=0
"$MCUPROF" record "$elf" --gdb "$gdb" --image int.img -o int.gmon >out.txt 2>err.txt &
pid=$!
sleep 1
kill -INT $pid
wait $pid || rc=$?
[ "$rc" = 0 ] || { cat err.txt >&2; fail "Ctrl-C: exit $rc"; }
summary_fields err.txt
[ "$ENDED" = "pulled at SIGINT" ] || fail "Ctrl-C: ended '$ENDED'"
"$ARCS_EQUAL" mcuprof.img int.img || fail "Ctrl-C: record's arcs differ from the firmware's dump"
echo "ok   Ctrl-C ends a run without --duration: $ENDED, arcs exactly the dump's"

# --reset: QEMU's gdbstub has no reset command
rc=0
"$MCUPROF" record "$elf" --gdb "$gdb" --reset --duration 1 -o reset.gmon >out.txt 2>err.txt || rc=$?
[ "$rc" = 1 ] || { cat err.txt >&2; fail "--reset: exit $rc"; }
[ "$(wc -l <err.txt)" = 1 ] || { cat err.txt >&2; fail "--reset: not one line"; }
grep -q "^mcuprof: error: $gdb: the GDB server's monitor has no 'reset halt' (QEMU's gdbstub has no reset): it answered \"unknown command: 'reset'\"\$" err.txt ||
    { cat err.txt >&2; fail "--reset: message"; }
[ ! -e reset.gmon ] || fail "--reset: output written"
"$MCUPROF" record "$elf" --gdb "$gdb" --duration 0.2 -q -o after-reset.gmon || fail "record after a refused --reset failed"
echo "ok   --reset on QEMU's gdbstub: $(cat err.txt)"

rc=0
"$MCUPROF" record "$elf" --gdb "$gdb" --duration 2 -o gone.gmon >out.txt 2>err.txt &
pid=$!
sleep 0.5
stop_qemu
wait $pid || rc=$?
[ "$rc" = 1 ] || { cat err.txt >&2; fail "target gone: exit $rc"; }
[ "$(wc -l <err.txt)" = 1 ] || { cat err.txt >&2; fail "target gone: not one line"; }
grep -q "^mcuprof: error: " err.txt || fail "target gone: not an error"
[ ! -e gone.gmon ] || fail "target gone: output written"
echo "ok   target gone: $(cat err.txt)"
echo "$test_name: all checks passed"
