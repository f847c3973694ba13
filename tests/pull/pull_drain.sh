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
    -o "$work/gmon.out" --image "$work/sum.img" 2>"$work/err.txt" || fail "pull --interval failed"
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

# Each pull's rewrite of the sum is said (not a terminal: one line per
# file per pull), the samples never fewer than the pull before; the last
# pull's lines are those of the files left.
[ "$(wc -l <"$work/err.txt")" = 20 ] || fail "pull --interval said $(wc -l <"$work/err.txt") lines, not 20"
prev=0
for k in 1 2 3 4 5 6 7 8 9 10; do
    grep -q "^mcuprof: pull $k: wrote $work/sum.img (raw image, [0-9,]* bytes)$" "$work/err.txt" ||
        fail "pull $k: no line for sum.img"
    line=$(grep "^mcuprof: pull $k: wrote $work/gmon.out: [0-9,]* samples, [0-9,]* arcs, " "$work/err.txt") ||
        fail "pull $k: no line for gmon.out"
    n=$(echo "$line" | sed 's/.*gmon.out: \([0-9,]*\) samples.*/\1/' | tr -d ,)
    [ "$n" -ge "$prev" ] || fail "pull $k: $n samples, fewer than the $prev before"
    prev=$n
done
[ "$(tail -n 2 "$work/err.txt")" = "$(wrote_raw_line "$work/sum.img" | sed 's/^mcuprof: /&pull 10: /')
$(wrote_line "$work/gmon.out" "$work/sum.img" | sed 's/^mcuprof: /&pull 10: /')" ] ||
    fail "the last pull said '$(tail -n 2 "$work/err.txt")'"

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
# On a terminal (script(1) gives a pseudo-terminal): one line counts down
# to the next pull, then says what the last one wrote, each time from the
# left margin and erased to the right; once the run ends, the last pull's line
# is printed for good. (The checks above: no such line in a file.)
if command -v script >/dev/null; then
    # 200 columns: a line longer than the terminal is cut
    script -qec "stty cols 200; cd '$work' && '$MCUPROF' pull --gdb $gdb --elf '$elf' --interval 1.5 --count 2 \
        -o tty.gmon --image tty.img" /dev/null >"$work/tty.txt" || fail "pull --interval on a terminal failed"
    grep -qF $'\r'"mcuprof: pull 1: wrote tty.gmon (gnu): " "$work/tty.txt" &&
        grep -qF $'\r'"mcuprof: pull 2 in 1 s; pull 1: wrote tty.gmon (gnu): " "$work/tty.txt" ||
        fail "no countdown on the terminal: $(cat -v "$work/tty.txt")"
    (cd "$work" && [ "$(sed 's/.*\x1b\[K//' tty.txt | tr -d '\r')" = "$(wrote_raw_line tty.img | sed 's/^mcuprof: /&pull 2: /')
$(wrote_line tty.gmon tty.img gnu | sed 's/^mcuprof: /&pull 2: /')" ]) ||
        fail "the last lines on the terminal: $(cat -v "$work/tty.txt")"
else
    echo "pull_drain: script(1) missing (util-linux): the terminal case skipped"
fi
echo "pull_drain: all checks passed"
