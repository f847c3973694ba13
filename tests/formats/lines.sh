#!/usr/bin/env bash
# lines.sh lines | stripped PREFIX | damaged PREFIX - source lines in
# `mcuprof report --lines`.
#   lines:    on the demo, hot_a's hottest line is its spin loop's line in
#             workload.c, functions are declared where workload.c says, and
#             every function's lines add up to its self samples (0.01);
#   stripped: the ELF without debug information (PREFIX-objcopy
#             --strip-debug) gives one warning naming it and a report
#             without lines, exit 0;
#   damaged:  one byte of the ELF's DWARF changed (the last NUL of
#             .debug_line_str, the first line table's unit_length past
#             the section's end): report --lines and convert --format
#             callgrind give exactly one warning naming the ELF, the
#             section and the offset, and their output without lines,
#             exit 0.
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

if [ "$mode" = damaged ]; then
    # FIELD (0-based, after the name: address, offset, size) of section $1
    shdr() {
        "$2-readelf" -S -W "$ELF" | awk -v n="$1" -v f="$3" '{ for (i = 1; i < NF; i++) if ($i == n) { print $(i + 2 + f); exit } }'
    }
    # a copy of the ELF with the bytes $2 (printf escapes) at file offset $1
    damage() {
        cp "$ELF" "$WORK/bad.elf"
        printf "$2" | dd of="$WORK/bad.elf" bs=1 seek="$1" conv=notrunc status=none
    }
    # both commands on the copy: exit 0, the one warning $1, no lines
    expect() {
        local want="mcuprof: warning: $WORK/bad.elf: broken DWARF ($1): no source lines" rc=0
        "$MCUPROF" report "$IMG" --elf "$WORK/bad.elf" --lines >"$WORK/report.txt" 2>"$WORK/report.err" || rc=$?
        [ "$rc" -eq 0 ] || fail "report: exit $rc on $1: $(cat "$WORK/report.err")"
        [ "$(grep -c 'DWARF' "$WORK/report.err")" -eq 1 ] && grep -qxF "$want" "$WORK/report.err" ||
            fail "report: not the one warning '$want': $(cat "$WORK/report.err")"
        grep -q '^hot_a: .*% inclusive' "$WORK/report.txt" || fail "report: no call graph beside the warning"
        grep -A1 '^source lines' "$WORK/report.txt" | grep -qxF "  none: the DWARF of $WORK/bad.elf is malformed (the warning above says where)" ||
            fail "report: lines listed, or not the malformed-DWARF line"
        rc=0
        "$MCUPROF" convert "$IMG" --elf "$WORK/bad.elf" --format callgrind -o "$WORK/out.cg" 2>"$WORK/cg.err" || rc=$?
        [ "$rc" -eq 0 ] || fail "convert: exit $rc on $1: $(cat "$WORK/cg.err")"
        [ "$(grep -c 'DWARF' "$WORK/cg.err")" -eq 1 ] && grep -qxF "$want" "$WORK/cg.err" ||
            fail "convert: not the one warning '$want': $(cat "$WORK/cg.err")"
        grep -qx 'fn=([0-9]*) hot_a' "$WORK/out.cg" && grep -qx 'positions: line' "$WORK/out.cg" ||
            fail "convert: no callgrind profile without lines"
        ! grep -q 'workload\.c' "$WORK/out.cg" || fail "convert: source files from a damaged ELF"
    }
    off=$((16#$(shdr .debug_line_str "$2" 1)))
    size=$((16#$(shdr .debug_line_str "$2" 2)))
    [ "$size" -gt 0 ] || fail "no .debug_line_str in $ELF"
    damage $((off + size - 1)) 'x'
    expect "$(printf '.debug_line_str offset 0x%x' $((size - 1))): the section's last byte is not the NUL that ends every string"
    off=$((16#$(shdr .debug_line "$2" 1)))
    size=$((16#$(shdr .debug_line "$2" 2)))
    # little-endian, as every board's ELF is
    damage "$off" "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((size & 255)) $((size >> 8 & 255)) $((size >> 16 & 255)) $((size >> 24)))"
    expect "$(printf ".debug_line offset 0x0: unit length 0x%x runs past the section's end (%u bytes left)" "$size" $((size - 4)))"
    echo "lines: $BOARD: a damaged .debug_line_str or .debug_line gives one warning and no lines"
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
