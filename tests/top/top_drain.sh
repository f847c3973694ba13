#!/usr/bin/env bash
# top_drain.sh BOARD FWDIR WORKDIR - `mcuprof top` never drains the target
# unless asked, and finds a drain it did not make:
#   - after top --batch, an image pulled (no --reset) still has generation
#     0, and at least the samples top counted; after top --reset-first, 1;
#   - on firmware that drains its own tables every 1.5 s of its time
#     (top_split_reset.elf), top says "restarted: the target was drained
#     between two snapshots (generation G to G+1)" for the interval that
#     found it, numbers the intervals on, counts only those with figures
#     in run_intervals, and the interval after a restart has top_hot at
#     its share again (50 % within 3 standard errors and a point); the
#     screen says the drain too.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
top_test top.drain "$@"
generation() { info_json "$1" .counters.generation; }

top_qemu "$elf" "$work"
"$MCUPROF" top --gdb "$gdb" --elf "$elf" --batch --interval 0.3 --count 2 -n 1 >"$work/plain.txt"
"$MCUPROF" pull --gdb "$gdb" --elf "$elf" -i "$work/after.img" 2>/dev/null
[ "$(generation "$work/after.img")" = 0 ] || fail "top drained the target (generation $(generation "$work/after.img"))"
seen=$(awk '/^interval 2 / { for (i = 1; i < NF; i++) if ($i == "run_samples") print $(i + 1) }' "$work/plain.txt")
[ "$(info_json "$work/after.img" .counters.samples_taken)" -ge "$seen" ] ||
    fail "the image holds fewer samples than top counted ($seen): drained?"
"$MCUPROF" top --gdb "$gdb" --elf "$elf" --batch --interval 0.3 --count 1 -n 1 --reset-first >"$work/first.txt"
"$MCUPROF" pull --gdb "$gdb" --elf "$elf" -i "$work/first.img" 2>/dev/null
[ "$(generation "$work/first.img")" = 1 ] || fail "--reset-first did not drain (generation $(generation "$work/first.img"))"
echo "generation 0 after top, 1 after top --reset-first"
stop_qemu

# The drainer is paced in target time (every 1.5 s), top in host time, and
# QEMU's target runs at whatever multiple of host time this machine gives.
# So the interval is set from the ratio measured above: a third of the
# drain period in host time, so that most intervals hold no drain and the
# one after a restart has figures.
read -r ratio interval < <(awk '/^interval 2 / { for (i = 1; i < NF; i++) { if ($i == "wall_s") w = $(i + 1); if ($i == "target_s") t = $(i + 1) } }
END { if (!w || !t) exit 1; v = 1.5 * w / t / 3; if (v < 0.1) v = 0.1; if (v > 2) v = 2; printf "%.2f %.2f\n", t / w, v }' "$work/plain.txt") ||
    fail "no wall_s / target_s in top's second interval"
echo "the target runs at $ratio x host time: top --interval $interval"

reset=$fw/top_split_reset.elf
top_qemu "$reset" "$work"
"$MCUPROF" top --gdb "$gdb" --elf "$reset" --batch --interval "$interval" --count 8 -n 3 >"$work/out.txt" 2>"$work/err.txt" ||
    { cat "$work/err.txt"; fail "top failed"; }
cat "$work/out.txt"
[ "$(grep -c '^interval ' "$work/out.txt")" = 8 ] || fail "not 8 intervals"
awk '/^interval / { n++; if ($2 != n) exit 1 }' "$work/out.txt" || fail "the intervals are not numbered 1 to 8"
grep -qE '^interval [0-9]+ time [0-9TZ:-]+ restarted: the target was drained between two snapshots \(generation ([0-9]+) to [0-9]+\): the interval starts over from this snapshot$' "$work/out.txt" ||
    fail "no drain found in 8 intervals of $interval s (the firmware drains every 1.5 s of its time)"
awk '
/^interval .* restarted: / { restarts++; after = 1; next }
/^interval / { figures++; for (i = 1; i < NF; i++) if ($i == "run_intervals" && $(i + 1) != figures) bad = 1; next }
after && $NF == "top_hot" && NF == 13 {
    after = 0; checked++
    # 50 % within 3 standard errors (1.5 times the printed 95 % half-width)
    # and a point (the code between the spins)
    if (50 < $1 - 1.5 * ($1 - $2) - 1 || 50 > $1 + 1.5 * ($3 - $1) + 1) {
        print "after a restart top_hot at " $1 " % [" $2 ", " $3 "]"; bad = 1
    }
}
END { printf "%d restarts, %d intervals with figures, %d checked after a restart\n", restarts, figures, checked; exit bad || !checked }' \
    "$work/out.txt" || fail "the intervals around a restart (above)"
[ ! -s "$work/err.txt" ] || { cat "$work/err.txt"; fail "top wrote to stderr"; }

# the same on the screen: said on the line under the losses
tty_start "$work" "'$MCUPROF' top --gdb $gdb --elf '$reset' --interval $interval"
tty_wait '^interval [0-9]+: the target was drained between two snapshots \(generation [0-9]+ to [0-9]+\): the interval starts over' 20 ||
    { echo "$screen"; fail "the screen does not say the drain"; }
grep 'the target was drained' <<<"$screen"
tty_keys q
echo "ok   top.drain"
