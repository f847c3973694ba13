#!/usr/bin/env bash
# sample_qemu.sh BOARD ELF WORKDIR - `mcuprof sample --method halt` through
# QEMU's gdbstub on firmware whose time split is known (probe_split.c:
# thread_work 50 %, masked_work 20 % with interrupts masked, an interrupt
# the target's sampler cannot preempt 30 %), merged with the runtime's
# arcs. Checked with the real gprof:
#   - each function's share of the probe's samples within 3 points plus
#     3 standard errors of N samples of the truth (the samples are timed
#     by the host and the truth by the guest's clock, which under QEMU
#     agree only where the guest costs the host the same per instruction:
#     probe_split.c says how it keeps to that; the 3 points cover the code
#     around the work). The window ends after N samples, however slowly a
#     loaded host takes them;
#   - the probe sees the handler that the target's own histogram (the
#     image at the window's end) cannot: under 2 % there;
#   - the arcs of the window are exactly the end image's counts minus the
#     start image's (computed here from the two images, read by gprof
#     from the sampled gmon.out), and leaf is called 10 times a round.
# Tools from the environment: MCUPROF, GPROF, GPROF_CHECK.
set -euo pipefail
board=$1
elf=$2
work=$3
test_name=sample.$board
# shellcheck source=../pull/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../pull/lib.sh"
# shellcheck source=truth.sh
. "$(dirname "${BASH_SOURCE[0]}")/truth.sh"
: "${MCUPROF:?}" "${GPROF:?}" "${GPROF_CHECK:?}"
N=800

rm -rf "$work"
mkdir -p "$work"
MCUPROF_QEMU_TIMEOUT=110 # long windows on a loaded host
start_qemu "$board" "$elf" "$work" "probe_split: ready"
gdb=127.0.0.1:$qemu_port

# --timeout 30: a stop may take seconds on a host loaded many times over
"$MCUPROF" sample --gdb "$gdb" --elf "$elf" --method halt --timeout 30 --samples $N --duration 40 -o "$work/probe.gmon" \
    --images "$work/window" 2>"$work/stderr" || { cat "$work/stderr" >&2; fail "sample failed"; }
cat "$work/stderr"
summary=$(grep '^mcuprof: sample: [0-9]* samples' "$work/stderr") || fail "no summary line"
rate=$(sed -n 's/.* s, \([0-9]*\)\/s, method halt .*/\1/p' <<<"$summary")
[ -n "$rate" ] && [ "$rate" -ge 1 ] || fail "no rate in: $summary"
grep -q 'core stopped [0-9]* us a sample' <<<"$summary" || fail "no halted time in: $summary"
grep -q 'exact arcs of the window merged' <<<"$summary" || fail "arcs not merged: $summary"
grep -q "^mcuprof: sample: $N samples" <<<"$summary" || fail "not $N samples: $summary"
# One line per file written, once all are in place: the two images, then
# the profile with the window's samples and arcs (those of gmon.out) and
# its losses: the calls the images' counters lost from start to end, the
# samples outside the code.
outside=$(sed -n 's/.*; \([0-9]*\) outside the code;.*/\1/p' <<<"$summary")
[ "$(info_json "$work/probe.gmon" .counters.binned)" = $((N - outside)) ] || fail "probe.gmon: not $N - $outside samples"
losses=
for c in lost_arcs_table_full lost_calls_reentrant lost_calls_frozen; do
    w=$(lost_words $c $(($(info_json "$work/window.end.img" .counters.lost.$c) -
        $(info_json "$work/window.start.img" .counters.lost.$c))))
    [ -z "$w" ] || losses="${losses:+$losses, }$w"
done
w=$(lost_words lost_samples_out_of_range "$outside")
[ -z "$w" ] || losses="${losses:+$losses, }$w"
want=$(wrote_line_losses "$work/probe.gmon" $((N - outside)) "$(info_json "$work/probe.gmon" '.arcs | length')" \
    "$losses" gnu)
[ "$(grep '^mcuprof: wrote ' "$work/stderr")" = "$(wrote_raw_line "$work/window.start.img")
$(wrote_raw_line "$work/window.end.img")
$want" ] || fail "the lines said of the files written are not as expected: $(grep '^mcuprof: wrote ' "$work/stderr")"

"$GPROF" -b -p "$elf" "$work/probe.gmon" >"$work/flat.txt"
"$GPROF" -b -q "$elf" "$work/probe.gmon" >"$work/graph.txt"

# The window's arcs from the two images, by caller and callee name.
arcs() { "$MCUPROF" convert "$1" --elf "$elf" --format json -o - 2>/dev/null | jq -r '.arcs[] | "\(.caller) \(.callee_name) \(.count)"' | sort; }
arcs "$work/window.start.img" >"$work/start.arcs"
arcs "$work/window.end.img" >"$work/end.arcs"
for a in "main thread_work" "main masked_work" "thread_work leaf"; do
    s=$(awk -v k="$a" '$1 " " $2 == k { n += $3 } END { print n + 0 }' "$work/start.arcs")
    e=$(awk -v k="$a" '$1 " " $2 == k { n += $3 } END { print n + 0 }' "$work/end.arcs")
    [ "$e" -gt "$s" ] || fail "no call $a in the window (start $s, end $e)"
    echo "arc $a $((e - s))"
done >"$work/expect.txt"
probe_split_shares $N >>"$work/expect.txt"
"$GPROF_CHECK" --flat "$work/flat.txt" --graph "$work/graph.txt" --expect "$work/expect.txt" ||
    fail "gprof disagrees with the truth (expect.txt above)"
rounds=$(awk '$1 == "main" && $2 == "thread_work" { print $3 }' <(sed 's/^arc //' "$work/expect.txt"))
leaves=$(awk '$1 == "thread_work" && $2 == "leaf" { print $3 }' <(sed 's/^arc //' "$work/expect.txt"))
# a window starts and ends within a round: 10 calls of leaf a round, give or take one round
[ $((leaves - 10 * rounds)) -le 10 ] && [ $((10 * rounds - leaves)) -le 10 ] ||
    fail "leaf called $leaves times in $rounds rounds"

# What the target's own sampler made of the same run: the handler is
# held off (Cortex-M) or charged to the trap's way in (RISC-V), never binned
# in the handler: no sample there, where the probe has a third of them.
"$MCUPROF" convert "$work/window.end.img" -o "$work/systick.gmon" 2>/dev/null
"$GPROF" -b -p "$elf" "$work/systick.gmon" >"$work/systick.txt"
share() { awk -v f="$1" '$NF == f && $1 ~ /^[0-9.]+$/ { print $1; found = 1 } END { if (!found) print 0 }' "$2"; }
probe=$(share board_swi_handler "$work/flat.txt")
systick=$(share board_swi_handler "$work/systick.txt")
echo "board_swi_handler: probe $probe %, the target's sampler $systick %"
[ "$(info_json "$work/window.end.img" .counters.samples_taken)" -gt 0 ] || fail "the target's sampler took nothing"
awk -v s="$systick" 'BEGIN { exit !(s == 0) }' || fail "the target's sampler binned $systick % in the handler"
echo "sample.$board: all checks passed"
