#!/usr/bin/env bash
# top_batch.sh BOARD FWDIR WORKDIR - `mcuprof top --batch` on
# firmware/top_split.c under QEMU (lib.sh says what it does), read line
# by line:
#   - one block per interval, --count of them, numbered from 1; the
#     header's fields in their order, the run's figures the sums of the
#     intervals';
#   - in every interval, each work function's self share within 3
#     standard errors (1.5 times the half-width of the 95 % interval top
#     prints) plus 0.3 points of its part of the round (50, 30, 10, 10 of
#     the time the spins take, the sum S of their shares, which must be 95 %
#     or more: the rest is the code between the spins and the call-path
#     hook, about 2 %; the time frozen is no part of a share); main on
#     every call path (inclusive 100 %), and no function's inclusive share
#     below its self share (the other inclusive figures are not the
#     round's: the shadow stack keeps a returned callee on the path until
#     the next call, docs/paths.md, so top_leaf stays on top_hot's spin);
#   - calls: the four work functions once a round (within one call of
#     each other: a snapshot may fall inside a round), top_leaf 10 times
#     top_hot's (within 10); the calls of the interval within 2 of the
#     rounds its target time holds (S % of target_s times 100 a second),
#     and calls/s the calls over target_s (to target_s's 3 decimals);
#   - the context split: the interrupt's context 10 % of the time too;
#   - --lines and --sort calls; the firmware without call paths: "-" in
#     the inclusive columns;
#   - --halt: no freeze, so no sample nor call lost;
#   - SIGTERM ends a run without --count: status 0, the last block whole;
#     a reader that goes away (| head) ends top with status 0, a full disk
#     (>/dev/full) with one error line and status 1.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
top_test "top.$1.batch" "$@"
N=4

top_qemu "$elf" "$work"
"$MCUPROF" top --gdb "$gdb" --elf "$elf" --batch --interval 0.5 --count $N >"$work/out.txt" 2>"$work/err.txt" ||
    { cat "$work/err.txt"; fail "top --batch failed"; }
cat "$work/out.txt"
[ ! -s "$work/err.txt" ] || { cat "$work/err.txt"; fail "top wrote to stderr"; }

# the header lines: N of them, numbered, every field in its place
grep '^interval ' "$work/out.txt" >"$work/headers.txt"
[ "$(wc -l <"$work/headers.txt")" = $N ] || fail "not $N interval headers"
num='[0-9]+'
dec='[0-9]+\.[0-9]+'
k=0
run=0
while read -r h; do
    k=$((k + 1))
    grep -qE "^interval $k time [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z wall_s $dec target_s $dec samples $num lost_samples $num lost_calls $num missed_periods $num deferred_samples $num held_off $num table_lost $num run_intervals $k run_samples $num sort self$" <<<"$h" ||
        fail "header $k: $h"
    run=$((run + $(field "$h" samples)))
    [ "$(field "$h" run_samples)" = $run ] || fail "header $k: run_samples is not the sum of the intervals' ($run)"
    # the shares are judged by the intervals top prints, as wide as the
    # samples are few (a loaded host runs QEMU slowly); but not none
    [ "$(field "$h" samples)" -ge 100 ] || fail "header $k: too few samples to judge a share"
done <"$work/headers.txt"
[ "$(grep -c '^self% self_lo self_hi run% run_lo run_hi calls/s calls run_calls incl% incl_lo incl_hi function$' "$work/out.txt")" = $N ] ||
    fail "not $N column title lines"

# Every block judged by awk: each function row is 13 fields, the name last.
awk -v n=$N '
function bad(what) { printf "interval %d: %s\n", block, what; failed = 1 }
function near(f, share, lo, hi, truth) {
    if (truth < share - 1.5 * (share - lo) - 0.3 || truth > share + 1.5 * (hi - share) + 0.3)
        bad(sprintf("%s at %.2f %% [%.2f, %.2f], its part of the round %.2f %%", f, share, lo, hi, truth))
}
function judge(   s, f, truth, rounds) {
    s = self["top_hot"] + self["top_inner"] + self["top_outer"] + self["top_irq_work"]
    if (s < 95) bad(sprintf("the spins take %.2f %% of the time", s))
    split("top_hot:50 top_inner:30 top_outer:10 top_irq_work:10", parts, " ")
    for (i in parts) {
        split(parts[i], p, ":")
        near(p[1], self[p[1]], lo[p[1]], hi[p[1]], p[2] * s / 100)
        if (calls[p[1]] < calls["top_hot"] - 1 || calls[p[1]] > calls["top_hot"] + 1)
            bad(sprintf("%s called %d times, top_hot %d", p[1], calls[p[1]], calls["top_hot"]))
        if (ihi[p[1]] < lo[p[1]])
            bad(sprintf("%s inclusive %.2f %% [%.2f, %.2f] below its self share %.2f %%", p[1], incl[p[1]],
                        ilo[p[1]], ihi[p[1]], self[p[1]]))
    }
    if (incl["main"] < 99.9) bad(sprintf("main on %.2f %% of the paths", incl["main"]))
    if (calls["top_leaf"] < 10 * calls["top_hot"] - 10 || calls["top_leaf"] > 10 * calls["top_hot"] + 10)
        bad(sprintf("top_leaf called %d times, top_hot %d", calls["top_leaf"], calls["top_hot"]))
    rounds = s / 100 * target * 100
    if (calls["top_hot"] < rounds - 2 || calls["top_hot"] > rounds + 2)
        bad(sprintf("top_hot called %d times in %.3f s of the target, %.1f rounds", calls["top_hot"], target, rounds))
    # target_s has 3 decimals: calls/s times it is the calls within what they leave out
    if (rate["top_hot"] * target < calls["top_hot"] - 0.001 * rate["top_hot"] - 0.05 ||
        rate["top_hot"] * target > calls["top_hot"] + 0.001 * rate["top_hot"] + 0.05)
        bad(sprintf("top_hot %.1f calls/s, %d calls in %.3f s", rate["top_hot"], calls["top_hot"], target))
    near("the interrupt context", irq, irqlo, irqhi, 10 * s / 100)
    for (f in calls) if (runcalls[f] < calls[f]) bad(f " has fewer calls in the run than in the interval")
    printf "interval %d: spins %.2f %%, top_hot %.2f %% (%.2f), %d calls in %.3f s (%.1f rounds), irq context %.2f %%\n",
        block, s, self["top_hot"], 50 * s / 100, calls["top_hot"], target, rounds, irq
}
/^interval / {
    if (block) judge()
    block++; delete self; delete calls; delete incl; irq = -1
    for (i = 1; i < NF; i++) {
        if ($i == "target_s") target = $(i + 1)
        if ($i == "samples") samples = $(i + 1)
        if ($i == "lost_samples") lost = 100 * $(i + 1) / samples
    }
    next
}
/^context / {
    if ($2 != "thread") { irq = $(NF - 2); irqlo = $(NF - 1); irqhi = $NF }
    next
}
NF == 13 && $1 ~ /^[0-9.]+$/ {
    self[$13] = $1; lo[$13] = $2; hi[$13] = $3; rate[$13] = $7; calls[$13] = $8; runcalls[$13] = $9
    incl[$13] = $10; ilo[$13] = $11; ihi[$13] = $12
}
END {
    if (block) judge()
    if (block != n) { print "not " n " blocks"; failed = 1 }
    exit failed
}' "$work/out.txt" || fail "the figures disagree with the firmware (above)"

# the run's calls are the intervals' summed
awk '$13 == "top_hot" { sum += $8; last = $9 } END { exit !(sum == last) }' "$work/out.txt" ||
    fail "top_hot's run_calls is not the sum of its calls"

# --lines 2 --sort calls: top_leaf first, two functions
"$MCUPROF" top --gdb "$gdb" --elf "$elf" --batch --interval 0.3 --count 1 --lines 2 --sort calls >"$work/lines.txt"
cat "$work/lines.txt"
grep -q ' sort calls$' "$work/lines.txt" || fail "--sort calls: the header does not say it"
[ "$(awk 'NF == 13 && $1 ~ /^[0-9.]+$/' "$work/lines.txt" | wc -l)" = 2 ] || fail "--lines 2: not two functions"
[ "$(awk 'NF == 13 && $1 ~ /^[0-9.]+$/ { print $13; exit }' "$work/lines.txt")" = top_leaf ] ||
    fail "--sort calls: top_leaf is not first"

# --halt: the core stopped for each snapshot, no freeze: nothing lost
"$MCUPROF" top --gdb "$gdb" --elf "$elf" --batch --interval 0.3 --count 2 -n 1 --halt >"$work/halt.txt"
[ "$(grep -c '^interval [12] time .* lost_samples 0 lost_calls 0 ' "$work/halt.txt")" = 2 ] ||
    { cat "$work/halt.txt"; fail "--halt: samples or calls lost, yet nothing was frozen"; }

# SIGTERM ends a run with no --count: status 0, whole blocks only
"$MCUPROF" top --gdb "$gdb" --elf "$elf" --batch --interval 0.2 -n 1 >"$work/term.txt" 2>"$work/term.err" &
top_pid=$!
for _ in $(seq 100); do [ "$(grep -c '^interval ' "$work/term.txt")" -ge 2 ] && break; sleep 0.1; done
kill -TERM "$top_pid"
rc=0
wait "$top_pid" || rc=$?
[ "$rc" = 0 ] || { cat "$work/term.err"; fail "SIGTERM: exit status $rc"; }
[ ! -s "$work/term.err" ] || { cat "$work/term.err"; fail "SIGTERM: something on stderr"; }
[ -z "$(tail -c 1 "$work/term.txt")" ] && [ "$(tail -n 1 "$work/term.txt")" = "" ] || fail "SIGTERM: a block cut short"

# a reader that goes away ends top (status 0); a full disk is one error
set +o pipefail
timeout 20 "$MCUPROF" top --gdb "$gdb" --elf "$elf" --batch --interval 0.2 | head -2 >/dev/null
rc=${PIPESTATUS[0]}
set -o pipefail
[ "$rc" = 0 ] || fail "top --batch | head: exit status $rc (124: it never ended)"
rc=0
"$MCUPROF" top --gdb "$gdb" --elf "$elf" --batch --interval 0.2 --count 2 >/dev/full 2>"$work/full.err" || rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <"$work/full.err")" = 1 ] &&
    grep -q '^mcuprof: error: top: cannot write to standard output: No space left on device$' "$work/full.err" ||
    { cat "$work/full.err"; fail ">/dev/full: exit status $rc"; }
stop_qemu

# without call paths: no inclusive figures, and --sort inclusive says so
plain=$fw/top_split_plain.elf
top_qemu "$plain" "$work"
"$MCUPROF" top --gdb "$gdb" --elf "$plain" --batch --interval 0.3 --count 1 --sort inclusive >"$work/plain.txt" \
    2>"$work/plain.err"
cat "$work/plain.txt" "$work/plain.err"
grep -q ' sort self$' "$work/plain.txt" || fail "no paths: not sorted by self"
grep -q "^mcuprof: warning: .*no call paths in this firmware's image: sorted by self samples" "$work/plain.err" ||
    fail "no paths: --sort inclusive not warned"
awk 'NF == 13 && $13 == "top_hot" { found = 1; if ($10 != "-" || $11 != "-" || $12 != "-") exit 1 } END { exit !found }' \
    "$work/plain.txt" || fail "no paths: the inclusive columns are not '-'"
grep -q '^context ' "$work/plain.txt" && fail "no context table: yet context lines"
echo "ok   $test_name"
