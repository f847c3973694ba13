#!/usr/bin/env bash
# report.sh PREFIX - `mcuprof report` on the demo's profile, checked
# against the board's gprof (PREFIX-gprof) reading `convert --format gnu`:
# every function of gprof's flat profile is in the report with the same
# % time (within 0.01) and the same calls, the report of that gmon.out is
# the image's; --top 2 prints two functions,
# --function '^work' only matching ones, a bad REGEX is a usage error.
# Environment: MCUPROF ELF IMG WORK BOARD (tests/formats/CMakeLists.txt).
set -euo pipefail
prefix=$1
uart=$(dirname "$IMG")/uart.log
fail() { echo "report: $BOARD: $*" >&2; exit 1; }

rm -rf "$WORK"
mkdir -p "$WORK"
"$MCUPROF" convert "$IMG" --elf "$ELF" --format gnu -o "$WORK/gmon.out"
"$prefix-gprof" -b -p "$ELF" "$WORK/gmon.out" >"$WORK/gprof.txt"
"$MCUPROF" report "$IMG" --elf "$ELF" >"$WORK/report.txt"

# The flat profile's rows: "% time, interval, self, calls, incl %, name".
flat() { awk '/^flat profile/ { on = 1; next } on && /^$/ { exit }
              on && $1 ~ /^[0-9.]+$/ { print $6, $1, $4 }' "$1"; }
# gprof -b -p: "%time cum self [calls self/call total/call] name"; no calls: blank.
awk '$1 ~ /^[0-9.]+$/ && (NF == 4 || NF == 7) { print $NF, $1, (NF == 7 ? $4 : 0) }' \
    "$WORK/gprof.txt" >"$WORK/gprof.flat"
flat "$WORK/report.txt" >"$WORK/report.flat"
[ "$(wc -l <"$WORK/gprof.flat")" -ge 10 ] || fail "gprof's flat profile has too few functions: $(cat "$WORK/gprof.txt")"
grep -q '^hot_a ' "$WORK/gprof.flat" || fail "gprof's flat profile lacks hot_a"

awk 'NR == FNR { pct[$1] = $2; calls[$1] = $3; next }
     { seen++
       if (!($1 in pct)) { printf "%s: in gprof'"'"'s flat profile, not in the report\n", $1; bad++; next }
       d = pct[$1] - $2; if (d < 0) d = -d
       if (d > 0.0100001) { printf "%s: %% time %s, gprof %s\n", $1, pct[$1], $2; bad++ }
       if (calls[$1] != $3) { printf "%s: calls %s, gprof %s\n", $1, calls[$1], $3; bad++ } }
     END { printf "%d functions compared with gprof\n", seen; exit bad > 0 }' \
    "$WORK/report.flat" "$WORK/gprof.flat" || fail "the flat profile differs from gprof's (above)"

# The gmon.out reads back to the same flat profile.
"$MCUPROF" report "$WORK/gmon.out" --elf "$ELF" >"$WORK/gmon.txt"
flat "$WORK/gmon.txt" >"$WORK/gmon.flat"
diff "$WORK/report.flat" "$WORK/gmon.flat" >&2 || fail "report of the gmon.out differs from the image's (above)"

# The demo's own counts (its EXPECT lines), in the call graph: fib's
# calls split into the one from outside and the recursive ones, and the
# three hot functions' shares within the demo's tolerance.
fib_calls=$(awk '$1 == "EXPECT" && $2 == "calls" && $3 == "fib" { print $4 }' "$uart")
fib_rec=$(awk '$1 == "EXPECT" && $2 == "arc" && $3 == "fib" && $4 == "fib" { print $5 }' "$uart")
grep -q "^fib: .*, called $((fib_calls - fib_rec))+$fib_rec\$" "$WORK/report.txt" ||
    fail "the call graph does not say fib was called $((fib_calls - fib_rec))+$fib_rec times"
awk 'NR == FNR { if ($1 == "EXPECT" && $2 == "share") { want[$3] = $4; tol[$3] = $5 } next }
     ($1 in want) { d = $2 - want[$1]; if (d < 0) d = -d
                    if (d > tol[$1]) { printf "%s: %s %%, the demo expects %s +- %s\n", $1, $2, want[$1], tol[$1]; bad++ }
                    n++ }
     END { exit (bad > 0 || n != 3) }' "$uart" "$WORK/report.flat" || fail "hot_a/b/c shares are off (above)"

# --top 2: the first two of the full flat profile, and two call-graph blocks.
"$MCUPROF" report "$IMG" --elf "$ELF" --top 2 >"$WORK/top.txt"
flat "$WORK/top.txt" >"$WORK/top.flat"
[ "$(wc -l <"$WORK/top.flat")" -eq 2 ] || fail "--top 2 printed $(wc -l <"$WORK/top.flat") functions"
[ "$(cut -d' ' -f1 "$WORK/top.flat")" = "$(head -2 "$WORK/report.flat" | cut -d' ' -f1)" ] ||
    fail "--top 2 did not print the two first functions"
[ "$(grep -c '% inclusive' "$WORK/top.txt")" -eq 2 ] || fail "--top 2 printed $(grep -c '% inclusive' "$WORK/top.txt") call-graph blocks"

# --function '^work': only matching functions, workload_run among them.
"$MCUPROF" report "$IMG" --elf "$ELF" --function '^work' >"$WORK/work.txt"
flat "$WORK/work.txt" >"$WORK/work.flat"
grep -q '^workload_run ' "$WORK/work.flat" || fail "--function '^work' lost workload_run"
! grep -v '^work' "$WORK/work.flat" || fail "--function '^work' printed the functions above"
! grep '% inclusive' "$WORK/work.txt" | grep -v '^work' || fail "--function '^work' graph printed the blocks above"
grep -q '^workload_run: .*% inclusive' "$WORK/work.txt" || fail "--function '^work' has no workload_run block"

# A bad regular expression: one error line, exit 2, nothing on stdout.
rc=0
"$MCUPROF" report "$IMG" --elf "$ELF" --function '(' >"$WORK/bad.out" 2>"$WORK/bad.err" || rc=$?
[ "$rc" -eq 2 ] || fail "a bad --function exits $rc, not 2"
[ "$(wc -l <"$WORK/bad.err")" -eq 1 ] && grep -q "error: .*--function '('" "$WORK/bad.err" ||
    fail "a bad --function: $(cat "$WORK/bad.err")"
[ ! -s "$WORK/bad.out" ] || fail "a bad --function printed a report"
echo "report: $BOARD: the flat profile matches gprof; --top, --function and a bad regex checked"
