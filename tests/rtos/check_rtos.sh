#!/usr/bin/env bash
# check_rtos.sh BOARD ELF WORKDIR - run one FreeRTOS test firmware and
# check its profile:
#   1. tests/e2e/check_firmware.sh: the run under QEMU (-icount), the arcs
#      and call counts through the real gprof (EXPECT lines), the
#      EXPECT-INFO values; it leaves console.log and mcuprof.img in WORKDIR,
#      and `mcuprof info` goes to info.txt;
#   2. the task table of `mcuprof info` ("samples by task") against the
#      firmware's truth, measured with the board's clock in the kernel's
#      switch hooks:
#        EXPECT-TASK <hundredths> <handle|-> <deleted 0|1> <name|(no-task)|(lost)|(invalid)>
#      every share within 1 point, a truth of exactly 0 with no sample at
#      all, the handle and the deletion as the firmware knows them, no
#      entry the firmware does not expect, at least 10,000 samples;
#   3. the context table ("samples by context") likewise:
#        EXPECT-CONTEXT <hundredths> <label as mcuprof info prints it>
#      ("A + B": two contexts the firmware can only time together); a
#      context the firmware does not name must stay under 1 point.
# (The tables come from `mcuprof info --json`, labelled as `mcuprof info`
# prints them; info.txt is kept beside it for a reader of a failure.)
# Tools come from the environment: MCUPROF, GPROF, GPROF_CHECK.
set -euo pipefail

board=$1
elf=$2
work=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tolerance=100 # hundredths of a percentage point
min_samples=10000

bash "$here/../e2e/check_firmware.sh" "$board" "$elf" "$work"
"$MCUPROF" info "$work/mcuprof.img" >"$work/info.txt"
"$MCUPROF" info "$work/mcuprof.img" --json >"$work/info.json"

fail() {
    echo "check_rtos: $board: $(basename "$elf"): $*" >&2
    exit 1
}

# The two tables of `info --json` as "kind|label|samples" lines, labelled
# as `mcuprof info` prints them, and each table's total as
# "kind-total||N" (what the table counted, lost and invalid included).
jq -r '
    (if .contexts then
        (.contexts | "context-total||\(([.entries[].samples] | add) + .lost)",
         (.entries[] | "context|\(.name)|\(.samples)"),
         (if .lost > 0 then "context|(contexts the table had no room for)|\(.lost)" else empty end))
     else empty end),
    (if .tasks then
        (.tasks | "task-total||\(([.entries[].samples] | add) + .lost + .invalid)",
         (.entries[] | if .handle == "0x0" then "task|(no task: before the scheduler)|\(.samples)"
                       else "task|\(if .name == "" then "?" else .name end) @\(.handle)\(if .deleted then " (deleted)" else "" end)|\(.samples)" end),
         (if .lost > 0 then "task|(tasks the table had no room for)|\(.lost)" else empty end),
         (if .invalid > 0 then "task|(invalid task handle)|\(.invalid)" else empty end))
     else empty end)
' "$work/info.json" >"$work/tables.txt"

table_total() {
    awk -F'|' -v k="$1-total" '$1 == k { print $3; exit }' "$work/tables.txt"
}
# samples of LABEL in table KIND, 0 when it has no such entry; a label
# "A + B" is the sum of A's and B's (contexts the firmware times together)
table_samples() {
    awk -F'|' -v k="$1" -v l="$2" 'BEGIN { n = split(l, part, / \+ /); for (i = 1; i <= n; i++) want[part[i]] = 1 }
        $1 == k && ($2 in want) { sum += $3 } END { print sum + 0 }' "$work/tables.txt"
}

bad=0
# compare KIND LABEL TRUTH: prints one row of the table, sets bad
compare() {
    local kind=$1 label=$2 truth=$3 total samples share diff verdict=ok
    total=$(table_total "$kind")
    samples=$(table_samples "$kind" "$label")
    share=$(((samples * 10000 + total / 2) / total))
    diff=$((share - truth))
    if [ "${diff#-}" -gt "$tolerance" ] || { [ "$truth" -eq 0 ] && [ "$samples" -ne 0 ]; }; then
        verdict=FAIL
        bad=1
    fi
    local sign=+
    [ "$diff" -ge 0 ] || sign=-
    printf '%-4s %-7s %-36s %7d  %6d.%02d %%  truth %3d.%02d %%  diff %s%d.%02d\n' "$verdict" "$kind" "$label" \
        "$samples" $((share / 100)) $((share % 100)) $((truth / 100)) $((truth % 100)) \
        "$sign" $((${diff#-} / 100)) $((${diff#-} % 100))
    local part
    while IFS= read -r part; do
        expected+=("$kind|$part")
    done < <(echo "$label" | sed 's/ + /\n/g')
}

grep '^EXPECT-TASK ' "$work/console.log" >"$work/expect-task.txt" || fail "the firmware printed no EXPECT-TASK line"
grep '^EXPECT-CONTEXT ' "$work/console.log" >"$work/expect-context.txt" || true
[ ! -s "$work/expect-context.txt" ] || [ -n "$(table_total context)" ] ||
    fail "mcuprof info prints no context table (see $work/info.txt)"

tasks=$(table_total task)
[ -n "$tasks" ] || fail "mcuprof info prints no task table (see $work/info.txt)"
[ "$tasks" -ge "$min_samples" ] || fail "only $tasks samples in the task table, fewer than $min_samples"
echo "== samples by task ($tasks) and by context against the firmware's clock"

expected=()
while read -r _ truth handle deleted name; do
    case $name in
    "(no-task)") label="(no task: before the scheduler)" ;;
    "(lost)") label="(tasks the table had no room for)" ;;
    "(invalid)") label="(invalid task handle)" ;;
    *)
        label="$name @$(printf '0x%x' "$handle")"
        [ "$deleted" = 1 ] && label="$label (deleted)"
        ;;
    esac
    compare task "$label" "$truth"
done <"$work/expect-task.txt"
while read -r _ truth label; do
    compare context "$label" "$truth"
done <"$work/expect-context.txt"

# Entries the firmware did not expect: none in the task table; in the
# context table, only what stays under the tolerance (e.g. the SVC that
# starts the first task).
while IFS='|' read -r kind label samples; do
    case $kind in *-total) continue ;; esac
    known=0
    for e in "${expected[@]}"; do
        [ "$e" = "$kind|$label" ] && known=1
    done
    [ "$known" -eq 0 ] || continue
    total=$(table_total "$kind")
    share=$(((samples * 10000 + total / 2) / total))
    if [ "$kind" = task ] || [ "$share" -gt "$tolerance" ]; then
        echo "FAIL $kind '$label': $samples samples, not expected by the firmware"
        bad=1
    else
        echo "ok   $kind '$label': $samples samples (under 1 point, not timed by the firmware)"
    fi
done <"$work/tables.txt"

[ "$bad" -eq 0 ] || { cat "$work/info.txt"; fail "the task or context shares do not match the firmware's truth"; }
echo "check_rtos: $board: $(basename "$elf"): all checks passed"
