#!/usr/bin/env bash
# check_shared.sh BOARD ELF WORKDIR - the call paths of rtos_shared.c
# (firmware/): first everything check_rtos.sh checks (tasks and contexts
# against the firmware's clock, exact call counts), then the paths, from
# `mcuprof convert --format folded`:
#   - every pair of neighbouring frames is a call the program makes, or an
#     interrupt over thread code (a handler's frames follow the frames of
#     the code it interrupted); nothing follows isr_work, a leaf;
#   - a path not flagged cut starts where its thread starts (main, a task
#     function, the interrupt); the paths of the tasks main creates after
#     spawn, and of the task spawn creates, are never flagged cut;
#   - each task's share of the path samples (paths holding its task
#     function) within 1 point of its time by the board's clock;
#   - shared_work's samples split between A and B as their calls (each
#     call does the same work), within 1 point, none outside a task;
#   - the handler's frames (Cortex-M: IRQ 10; IRQ10_Handler with -pg,
#     isr_work) in at least 80 % of the samples of that interrupt's
#     context, and in no more than those and the samples of the handlers
#     it preempts (IRQ 9, PendSV): a handler's frames, once returned, can
#     stay under their samples, and under the same handler nested in one,
#     in at most 0.1 % of the samples (docs/paths.md, known limits);
# and, from `convert --format json`, that no arc enters a task function
# or the interrupt handler from a function: no code calls them.
# Tools come from the environment: MCUPROF, GPROF, GPROF_CHECK; and jq.
set -euo pipefail

board=$1
elf=$2
work=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tolerance=100 # hundredths of a percentage point

bash "$here/check_rtos.sh" "$board" "$elf" "$work"

fail() {
    echo "check_shared: $board: $(basename "$elf"): $*" >&2
    exit 1
}

"$MCUPROF" convert "$work/mcuprof.img" --elf "$elf" --format folded -o "$work/paths.folded"
"$MCUPROF" convert "$work/mcuprof.img" --elf "$elf" --format json -o "$work/profile.json"

# Arcs into functions no code calls: the kernel starts the tasks, the
# core the handler (whose exception entry, a caller outside the code, is
# shown as such: gprof's <spontaneous>).
bad=0
bad_arcs=$(jq -r '.arcs[] | select((.callee_name | test("^(task_a|task_b|task_c|task_spawn)$"))
                                   or (.callee_name == "IRQ10_Handler" and .caller != null))
                  | "\(.caller) -> \(.callee_name) x\(.count)"' "$work/profile.json")
if [ -n "$bad_arcs" ]; then
    echo "FAIL arcs that no code made: $(echo "$bad_arcs" | tr '\n' ' ')"
    bad=1
fi

truth_of() { # the EXPECT-TASK hundredths of task NAME
    awk -v n="$1" '$1 == "EXPECT-TASK" && $5 == n { print $2 }' "$work/console.log"
}
calls_of() {
    awk -v n="$1" '$1 == "SHARED-CALLS" && $2 == n { print $3 }' "$work/console.log"
}
irq_samples=$(jq '[.contexts.entries[]? | select(.name == "IRQ 10") | .samples] | add // 0' "$work/info.json")
lower_samples=$(jq '[.contexts.entries[]? | select(.name == "IRQ 9" or .name == "PendSV") | .samples] | add // 0' \
    "$work/info.json")

awk -v tol="$tolerance" -v irq="$irq_samples" -v lower="$lower_samples" -v board="$board" \
    -v truth_a="$(truth_of A)" -v truth_b="$(truth_of B)" -v truth_c="$(truth_of C)" \
    -v calls_a="$(calls_of task_a)" -v calls_b="$(calls_of task_b)" '
BEGIN {
    split("main>pre_work rtos_profile_start>pre_work main>create task_spawn>create " \
          "task_a>a_only task_a>shared_work task_a>finished task_b>b_only task_b>shared_work " \
          "task_b>finished task_c>c_work task_c>finished IRQ10_Handler>isr_work", c, " ")
    for (i in c) real[c[i]] = 1
    split("main rtos_profile_start task_a task_b task_c task_spawn IRQ10_Handler isr_work", s, " ")
    for (i in s) start[s[i]] = 1
    split("IRQ10_Handler isr_work", hs, " ")
    for (i in hs) handler[hs[i]] = 1
    split("task_a task_b task_c", t, " ")
    for (i in t) whole_task[t[i]] = 1
}
function bad(what) { printf "FAIL %s: %s\n", what, $0; failed = 1 }
{
    n = $NF; total += n
    line = $0; sub(/ [0-9]+$/, "", line)
    k = split(line, f, ";")
    cut = 0; first = 1
    if (f[1] == "[cut at task switch]") { cut = 1; first = 2 }
    if (f[1] == "[truncated]") { bad("a truncated path (the stack is deep enough)"); next }
    if (f[first] == "[no profiled function]") next
    if (!cut && !(f[first] in start)) bad("a path not flagged cut lacks its outer frames")
    in_isr = 0; task = ""; has_isr = 0; has_shared = 0
    for (i = first; i <= k; i++) {
        if (f[i] in whole_task) { task = f[i]; if (cut) bad("a path of " f[i] " flagged cut") }
        if (f[i] in handler) has_isr = 1
        if (f[i] == "shared_work") has_shared = 1
        if (i == first) { in_isr = f[i] in handler; continue }
        pair = f[i - 1] ">" f[i]
        if (f[i - 1] == "isr_work" && (f[i] in handler)) stale += n   # the known limit, bounded below
        else if (f[i - 1] == "isr_work") bad("a frame above isr_work, a leaf")
        else if (f[i] in handler && !in_isr) in_isr = 1   # an interrupt over thread code
        else if (!(pair in real)) bad("a call that never happens (" pair ")")
        else if (in_isr && !(f[i] in handler)) bad("thread code above a handler")
    }
    if (has_isr) isr += n
    if (task != "") in_task[task] += n
    if (has_shared) {
        if (task == "task_a") sh_a += n
        else if (task == "task_b") sh_b += n
        else bad("shared_work outside task A and B")
    }
}
function row(what, got, truth) {
    d = got - truth; if (d < 0) d = -d
    v = d > tol ? "FAIL" : "ok"; if (v == "FAIL") failed = 1
    printf "%-4s %-34s %5d.%02d %%  truth %5d.%02d %%\n", v, what, got / 100, got % 100, truth / 100, truth % 100
}
function h(part, whole) { return whole ? int((part * 10000 + whole / 2) / whole) : 0 }
END {
    if (total < 10000) { print "FAIL only " total " samples in paths"; exit 1 }
    print "== " total " samples in paths"
    row("paths holding task_a", h(in_task["task_a"], total), truth_a)
    row("paths holding task_b", h(in_task["task_b"], total), truth_b)
    row("paths holding task_c", h(in_task["task_c"], total), truth_c)
    row("shared_work under task_a (of A+B)", h(sh_a, sh_a + sh_b), h(calls_a, calls_a + calls_b))
    if (board != "riscv32-virt") {
        # at most the samples of IRQ 10 and those of the handlers it preempts
        # (a returned leaf of a handler built without -pg, the known limit)
        ok = isr <= irq + lower && isr * 10 >= irq * 8 && stale * 1000 <= total
        printf "%-4s the handler in %d samples: IRQ 10 counted %d, IRQ 9 and PendSV %d; over a returned isr_work %d\n", \
            ok ? "ok" : "FAIL", isr, irq, lower, stale
        if (!ok) failed = 1
    } else if (isr) {
        print "FAIL isr_work in " isr " samples: nothing profiled runs on the ISR stack"; failed = 1
    }
    exit failed
}' "$work/paths.folded" || { cat "$work/paths.folded"; fail "the call paths are wrong"; }
[ "$bad" -eq 0 ] || fail "arcs that no code made"
echo "check_shared: $board: $(basename "$elf"): all checks passed"
