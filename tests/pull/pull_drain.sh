#!/usr/bin/env bash
# pull_drain.sh ELF WORKDIR - drain mode against QEMU: the firmware
# (pull_drain.c) calls profiled functions without end through an 8-record
# arc table and stops after the host drained it 8 times, printing how many
# calls it made. `mcuprof pull --interval --count` sums every drained
# snapshot on the host; the sum must equal the firmware's count exactly
# (arcs, plus the calls the target counted while frozen). Then Ctrl-C ends
# an endless --interval run with its output written and the target released.
# Tools from the environment: MCUPROF.
set -euo pipefail
test_name=pull_drain
elf=$1
work=$2
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
: "${MCUPROF:?}"

rm -rf "$work"
mkdir -p "$work"
start_qemu mps2-an385 "$elf" "$work" "pull_drain: running"
gdb=127.0.0.1:$qemu_port

# 8 drains stop the firmware; the 9th and 10th collect what came after.
"$MCUPROF" pull --gdb "$gdb" --elf "$elf" --interval 0.02 --count 10 \
    -o "$work/gmon.out" --image "$work/sum.img" || fail "pull --interval failed"
wait_console "$work/uart.log" "^EXPECT-CALLS" 10 || fail "the firmware never finished its rounds"
want=$(awk '$1 == "EXPECT-CALLS" { print $2 }' "$work/uart.log" | tr -d '\r')

"$MCUPROF" info --json "$work/sum.img" >"$work/sum.json"
value() { jq -r "$1" "$work/sum.json"; }
arcs=$(value .counters.total_calls)
frozen=$(value .counters.lost.lost_calls_frozen)
gen=$(value .counters.generation)
echo "pull_drain: firmware made $want calls; drained arcs $arcs + lost_calls_frozen $frozen; generation $gen"
[ "$((arcs + frozen))" = "$want" ] || fail "sum $arcs + $frozen != $want"
[ "$frozen" -le 10 ] || fail "lost_calls_frozen $frozen: more than one call per freeze"
[ "$gen" -ge 9 ] || fail "generation $gen: the drains did not reach the target"
[ "$(value .counters.lost.lost_arcs_table_full)" = 0 ] || fail "the table overflowed"
gcalls=$(info_json "$work/gmon.out" .counters.total_calls)
[ "$gcalls" = "$arcs" ] || fail "gmon.out has $gcalls calls, the summed image $arcs"

# Ctrl-C ends the run at once: a pull in progress stops (before its drain,
# or after it if the drain had begun), the sum of the pulls drained is
# written, the freeze released, exit 0.
"$MCUPROF" pull --gdb "$gdb" --elf "$elf" --interval 0.05 -o "$work/gmon.int" &
pull_pid=$!
sleep 0.5
kill -INT "$pull_pid"
rc=0
wait "$pull_pid" || rc=$?
[ "$rc" = 0 ] || fail "interrupted --interval run exited with $rc"
[ -s "$work/gmon.int" ] || fail "interrupted --interval run wrote nothing"
"$MCUPROF" pull --gdb "$gdb" --elf "$elf" --halt --image "$work/after.img"
[ "$(info_json "$work/after.img" .header.freeze_request)" = 0 ] || fail "left frozen after Ctrl-C"
echo "pull_drain: all checks passed"
