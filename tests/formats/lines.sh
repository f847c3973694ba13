#!/usr/bin/env bash
# lines.sh lines | stripped PREFIX - source lines in `mcuprof report --lines`.
#   lines:    on the demo, hot_a's hottest line is its spin loop's line in
#             workload.c, functions are declared where workload.c says, and
#             every function's lines add up to its self samples (0.01);
#   stripped: the ELF without debug information (PREFIX-objcopy
#             --strip-debug) gives one warning naming it and a report
#             without lines, exit 0.
# Environment: MCUPROF ELF IMG WORK BOARD (tests/formats/CMakeLists.txt).
set -euo pipefail
mode=$1
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/examples/demo/workload.c
fail() { echo "lines: $BOARD: $*" >&2; exit 1; }

rm -rf "$WORK"
mkdir -p "$WORK"

if [ "$mode" = stripped ]; then
    "$2-objcopy" --strip-debug "$ELF" "$WORK/stripped.elf"
    rc=0
    "$MCUPROF" report "$IMG" --elf "$WORK/stripped.elf" --lines >"$WORK/report.txt" 2>"$WORK/report.err" || rc=$?
    [ "$rc" -eq 0 ] || fail "exit $rc on a stripped ELF: $(cat "$WORK/report.err")"
    [ "$(grep -c 'no DWARF line table' "$WORK/report.err")" -eq 1 ] &&
        grep -q "warning: $WORK/stripped.elf: no DWARF line table: build with -g" "$WORK/report.err" ||
        fail "no single warning naming the stripped ELF: $(cat "$WORK/report.err")"
    grep -q '^hot_a: .*% inclusive' "$WORK/report.txt" || fail "no call graph without lines"
    grep -A1 '^source lines' "$WORK/report.txt" | grep -q "none: $WORK/stripped.elf has no usable DWARF line table" ||
        fail "the lines section does not say there are none"
    ! grep -q 'workload\.c' "$WORK/report.txt" || fail "source lines from a stripped ELF"
    echo "lines: $BOARD: a stripped ELF gives the warning and a report without lines"
    exit 0
fi

"$MCUPROF" report "$IMG" --elf "$ELF" --lines --no-graph >"$WORK/report.txt"
sed -n '/^source lines/,$p' "$WORK/report.txt" >"$WORK/lines.txt"

# hot_a's body, the spin loop, is one line of workload.c; hot_b is declared
# on the line that defines it. (Only functions with samples are listed:
# both always have a third or more of them.)
hot=$(grep -n '^HOT void hot_a(' "$src" | cut -d: -f1)
hotb=$(grep -n '^HOT void hot_b(' "$src" | cut -d: -f1)
[ -n "$hot" ] && [ -n "$hotb" ] || fail "hot_a or hot_b not found in $src"
grep -q "^hot_a (.*examples/demo/workload\.c:$hot): " "$WORK/lines.txt" || fail "hot_a not declared at workload.c:$hot"
grep -q "^hot_b (.*examples/demo/workload\.c:$hotb): " "$WORK/lines.txt" || fail "hot_b not declared at workload.c:$hotb"
first=$(grep -A1 '^hot_a ' "$WORK/lines.txt" | tail -1)
[[ $first == *"examples/demo/workload.c:$hot" ]] || fail "hot_a's hottest line is '$first', not workload.c:$hot"

# Each function's rows (samples first) add up to its samples, which are
# its self samples in the flat profile.
awk '/^flat profile/ { on = 1; next } on && /^$/ { on = 0 }
     on && $1 ~ /^[0-9.]+$/ { self[$6] = $3; next }
     /^source lines/ { lines = 1; next }
     !lines { next }
     /^[^ ]/ { fn = $1; sub(/:$/, "", fn); want[fn] = $(NF - 1); sum[fn] = 0; n++; next }
     /^ / { sum[fn] += $1 }
     END { for (f in want) {
               d = sum[f] - want[f]; if (d < 0) d = -d
               if (d > 0.01) { printf "%s: lines add up to %.3f, not %s\n", f, sum[f], want[f]; bad++ }
               d = self[f] - want[f]; if (d < 0) d = -d
               if (!(f in self) || d > 0.01) { printf "%s: %s samples, flat profile %s\n", f, want[f], self[f]; bad++ } }
           printf "%d functions checked\n", n; exit (bad > 0 || n < 3) }' "$WORK/report.txt" ||
    fail "lines do not add up to the functions' samples (above)"
echo "lines: $BOARD: hot_a's hottest line is workload.c:$hot; every function's lines add up"
