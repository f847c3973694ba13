#!/usr/bin/env bash
# check_task_funcs.sh BOARD ELF WORKDIR - run the FreeRTOS firmware that
# measures each task's time by function (firmware/rtos_task_funcs.c) and
# check the per-task profile built from call paths keyed by task:
#   1. check_rtos.sh: the run, the arcs, the task and context tables
#      against the firmware's clock;
#   2. `mcuprof report --task T`: each function's self share of task T
#      against the firmware's truth,
#        EXPECT-TASKFN <hundredths> <task> <function>
#      within 1.5 points (a truth of exactly 0: no sample at all), and
#      worker_steps() on at least 99 % of P's and Q's paths (whole paths);
#      worker_steps(), heavy() and shared_work() run in P and in Q on the
#      same call paths, so only the task tells them apart;
#   3. an unknown task name: one error line listing the known ones;
#   4. folded stacks rooted at the task (--format folded-task): each
#      task's lines add up to the samples `report --task` counted;
#   5. pprof's string labels, read by the real `go tool pprof`:
#      -tagfocus task=T gives exactly the self samples `report --task T`
#      printed (skipped, and said, without go).
# Tools come from the environment: MCUPROF, GPROF, GPROF_CHECK.
set -euo pipefail

board=$1
elf=$2
work=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tolerance=150 # hundredths of a percentage point

bash "$here/check_rtos.sh" "$board" "$elf" "$work"
img=$work/mcuprof.img

fail() {
    echo "check_task_funcs: $board: $*" >&2
    exit 1
}

grep '^EXPECT-TASKFN ' "$work/console.log" >"$work/expect-taskfn.txt" || fail "the firmware printed no EXPECT-TASKFN line"
tasks=$(awk '{ print $3 }' "$work/expect-taskfn.txt" | sort -u)

# report --task T's flat profile: "function self-samples incl-samples" and
# the task's total
for t in $tasks; do
    "$MCUPROF" report "$img" --elf "$elf" --task "$t" >"$work/report-$t.txt" ||
        fail "mcuprof report --task $t failed (see $work/report-$t.txt)"
done
# columns: % self, interval, self samples, % incl, interval, incl samples, name
self_pct() { # TASK FUNC: hundredths, 0 when not listed
    awk -v f="$2" '/^flat profile of task/ { on = 1; next } on && NF == 7 && $7 == f { printf "%d", $1 * 100 + 0.5; found = 1 }
                   END { if (!found) print 0 }' "$work/report-$1.txt"
}
self_samples() {
    awk -v f="$2" '/^flat profile of task/ { on = 1; next } on && NF == 7 && $7 == f { print $3; found = 1 }
                   END { if (!found) print 0 }' "$work/report-$1.txt"
}
task_total() {
    sed -n 's/^flat profile of task .* (% of the \([0-9]*\) samples of its call paths.*/\1/p' "$work/report-$1.txt"
}

echo "== each task's time by function (report --task) against the firmware's clock"
bad=0
while read -r _ truth task fn; do
    share=$(self_pct "$task" "$fn")
    samples=$(self_samples "$task" "$fn")
    diff=$((share - truth))
    verdict=ok
    if [ "${diff#-}" -gt "$tolerance" ] || { [ "$truth" -eq 0 ] && [ "$samples" -ne 0 ]; }; then
        verdict=FAIL
        bad=1
    fi
    printf '%-4s task %-3s %-12s %6d samples %4d.%02d %%  truth %3d.%02d %%\n' "$verdict" "$task" "$fn" "$samples" \
        $((share / 100)) $((share % 100)) $((truth / 100)) $((truth % 100))
done <"$work/expect-taskfn.txt"
for t in $tasks; do
    total=$(task_total "$t")
    [ -n "$total" ] && [ "$total" -ge 1000 ] || fail "task $t has ${total:-no} path samples, fewer than 1000"
done
# whole paths (PATH_TASKS): P's and Q's samples lie under worker_steps,
# but for the few in the kernel after it returned
for t in P Q; do
    incl=$(awk '/^flat profile of task/ { on = 1; next } on && NF == 7 && $7 == "worker_steps" { printf "%d", $4 * 100 }' \
        "$work/report-$t.txt")
    echo "     task $t: worker_steps inclusive ${incl:-0} hundredths of a percent"
    [ "${incl:-0}" -ge 9900 ] || { echo "FAIL task $t: worker_steps is on fewer than 99 % of its paths"; bad=1; }
done
[ "$bad" -eq 0 ] || { cat "$work/report-P.txt"; fail "a task's time by function does not match the firmware's truth"; }

echo "== an unknown task"
if "$MCUPROF" report "$img" --elf "$elf" --task nosuch >/dev/null 2>"$work/unknown.txt"; then
    fail "report --task nosuch succeeded"
fi
[ "$(wc -l <"$work/unknown.txt")" -eq 1 ] || fail "report --task nosuch: not one line: $(cat "$work/unknown.txt")"
known=$(sed -n "s/.*no task named 'nosuch'; the image's tasks: //p" "$work/unknown.txt")
for t in '(no task)' ctrl P Q R IDLE; do
    case ", $known, " in
    *", $t, "*) ;;
    *) fail "report --task nosuch does not list task '$t': $(cat "$work/unknown.txt")" ;;
    esac
done
cat "$work/unknown.txt"

echo "== folded stacks rooted at the task"
"$MCUPROF" convert "$img" --elf "$elf" --format "folded-task:$work/task.folded"
for t in $tasks; do
    sum=$(awk -v r="[task $t]" 'index($0, r ";") == 1 || $0 ~ "^\\[task " t "\\] " { n += $NF } END { print n + 0 }' \
        t="$t" "$work/task.folded")
    [ "$sum" -eq "$(task_total "$t")" ] || fail "folded-task: [task $t] holds $sum samples, report --task $t $(task_total "$t")"
    echo "ok   [task $t]: $sum samples"
done
for t in P Q; do
    grep -q "^\[task $t\];worker;worker_steps;shared_work " "$work/task.folded" ||
        fail "folded-task: no [task $t];worker;worker_steps;shared_work"
done

echo "== pprof labels, by go tool pprof"
go=${GO:-$(command -v go || true)}
if [ -z "$go" ]; then
    echo "go not found: the pprof labels are not checked (ci/install-deps.sh installs golang-go)"
else
    "$MCUPROF" convert "$img" --elf "$elf" --format "pprof:$work/task.pb.gz"
    # a writable home and build cache; never a toolchain or module fetched
    mkdir -p "$work/home"
    export HOME=$work/home GOCACHE=$work/home/gocache GOPATH=$work/home/go GOFLAGS= \
        GOTOOLCHAIN=local GOPROXY=off GOTELEMETRY=off PPROF_TMPDIR=$work/home
    for t in $tasks; do
        "$go" tool pprof -top -nodecount=1000 -sample_index=paths -tagfocus "task=$t" "$work/task.pb.gz" \
            >"$work/pprof-top-$t.txt" 2>"$work/pprof-$t.err" || fail "go tool pprof -tagfocus task=$t failed"
        for fn in worker worker_steps heavy shared_work r_work r_steps task_r; do
            want=$(self_samples "$t" "$fn")
            got=$(awk -v f="$fn" '$NF == f && $1 ~ /^[0-9]+$/ { print $1; found = 1 } END { if (!found) print 0 }' \
                "$work/pprof-top-$t.txt")
            [ "$got" = "$want" ] || fail "go tool pprof -tagfocus task=$t: $fn flat $got, report --task $want"
        done
        echo "ok   -tagfocus task=$t: the flat samples are report --task $t's self samples"
    done
fi
echo "check_task_funcs: $board: all checks passed"
