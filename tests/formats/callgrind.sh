#!/usr/bin/env bash
# callgrind.sh - `mcuprof convert --format callgrind` on the demo's profile,
# read by valgrind's callgrind_annotate and checked against gprof and the
# demo's own truth (its EXPECT lines):
#   1. callgrind_annotate reads the file without a warning;
#   2. each function's self samples, as callgrind_annotate sums them, as a
#      share of the samples gprof counts, equal gprof's flat profile within
#      0.01 points: half a sample of rounding, plus gprof's own rounding to
#      two decimals (0.005);
#   3. hot_a, hot_b and hot_c take the shares the demo's instruction counts
#      give them, within 1 point;
#   4. with --inclusive=yes, main holds at least 99 % of every sample
#      (what is not below main: the sampler's interrupt, and the profiling
#      hook, whose time gprof charges to no caller either), and every
#      function outside a cycle has the inclusive share gprof's call graph
#      gives it (gprof prints one decimal: within 0.05 + 0.02 points);
#   5. the calls= lines from each caller to each callee add up to exactly
#      the demo's counts, and the tail call that must not appear does not;
#   6. from the ELF without its DWARF: 'positions: line', and the same self
#      samples per function, exactly.
# Environment (tests/formats/CMakeLists.txt): MCUPROF ELF IMG WORK BOARD.
set -euo pipefail
: "${MCUPROF:?}" "${ELF:?}" "${IMG:?}" "${WORK:?}" "${BOARD:?}"

fail() {
    echo "callgrind: $BOARD: $*" >&2
    exit 1
}
# shellcheck source=expect_arcs.sh
. "$(dirname "${BASH_SOURCE[0]}")/expect_arcs.sh"

case $BOARD in
riscv*) binutils=riscv64-unknown-elf ;;
*) binutils=arm-none-eabi ;;
esac
gprof=$binutils-gprof objcopy=$binutils-objcopy
command -v "$gprof" >/dev/null || fail "$gprof not found (the board's binutils)"

rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
run=$(dirname "$IMG")
cat "$run/uart.log" "$run/stderr.log" | grep '^EXPECT ' >expect.txt || fail "no EXPECT lines in $run"

"$MCUPROF" convert "$IMG" --elf "$ELF" --format callgrind,gnu:gmon.out 2>convert.err ||
    fail "convert failed: $(cat convert.err)"
out=callgrind.out.mcuprof
[ -s "$out" ] || fail "no $out written (the format's default file)"
head -1 "$out" | grep -qx '# callgrind format' || fail "$out does not start with '# callgrind format'"
grep -qx 'positions: instr line' "$out" || fail "the demo's ELF has lines, but not 'positions: instr line'"
grep -qx 'events: Samples Ns' "$out" || fail "no 'events: Samples Ns' (the sample rate is known)"
summary=$(sed -n 's/^summary: \([0-9]*\) .*/\1/p' "$out")
if [ -z "$summary" ] || [ "$summary" -le 1000 ]; then
    fail "summary '$summary': expected the demo's thousands of samples"
fi

# Per function, summed over the files it has lines in: "name samples".
annotate() {
    callgrind_annotate --threshold=100 --auto=no "$@" "$out" 2>annotate.err |
        awk '/file:function$/ { on = 1; next }
             on && NF == 0 { exit }
             on && match($0, /[^ ]*:[^ ].*$/) {
                 v = $1; gsub(",", "", v); if (v == ".") v = 0
                 s = substr($0, RSTART); sub(/ \[[^]]*\]$/, "", s); sub(/^[^:]*:/, "", s)
                 gsub(/ /, "_", s)
                 sum[s] += v
             }
             END { for (s in sum) print s, sum[s] }' | sort
    [ ! -s annotate.err ] || fail "callgrind_annotate: $(head -3 annotate.err)"
}
annotate >self.txt
annotate --inclusive=yes >inclusive.txt
cp "$out" with-lines.out
[ -s self.txt ] || fail "callgrind_annotate listed no function"

# 2. Self shares against gprof's flat profile: "name percent".
"$gprof" -b -p "$ELF" gmon.out >flat.txt
awk '/^ *time +seconds/ { on = 1; next } on && NF == 0 { exit } on && NF >= 4 { print $NF, $1 }' flat.txt |
    sort >flat.pct
[ -s flat.pct ] || fail "$gprof printed no flat profile"
# gprof's 100 %: the samples of the functions it lists (not those in no
# function, nor those of functions it hides).
base=$(awk 'FNR == NR { pct[$1] = 1; next } $1 in pct { n += $2 } END { print n + 0 }' flat.pct self.txt)
awk -v base="$base" '
    FNR == NR { pct[$1] = $2; next }
    { self[$1] = $2 }
    END {
        for (f in self)
            if (self[f] > 0 && !(f in pct) && f != "<no_function>")
                printf "note: %s (%d samples) is not in gprof'"'"'s flat profile\n", f, self[f]
        for (f in pct) {
            share = 100 * self[f] / base
            d = share - pct[f]; if (d < 0) d = -d
            if (d > worst) worst = d
            if (d > 0.01) { printf "%s: callgrind %.4f %%, gprof %.2f %%\n", f, share, pct[f]; bad = 1 }
            n++
        }
        if (bad) exit 1
        printf "ok   self samples of %d functions equal gprof'"'"'s flat profile (worst %.4f points, base %d samples)\n", n, worst, base
    }' flat.pct self.txt || fail "self samples differ from gprof's flat profile"

# 3. The known time shares, against every sample.
grep '^EXPECT share ' expect.txt | while read -r _ _ fn want _; do
    got=$(awk -v f="$fn" '$1 == f { print $2 }' self.txt)
    awk -v g="${got:-0}" -v s="$summary" -v w="$want" -v f="$fn" 'BEGIN {
        p = 100 * g / s; d = p - w; if (d < 0) d = -d
        if (d > 1) { printf "%s: %.2f %% of the samples, expected %s %% within 1 point\n", f, p, w; exit 1 }
        printf "ok   %s %.2f %% (expected %s)\n", f, p, w }' || fail "time share of $fn"
done

# 4. Inclusive: main, then every function against gprof's call graph.
main_incl=$(awk '$1 == "main" { print $2 }' inclusive.txt)
awk -v g="${main_incl:-0}" -v s="$summary" 'BEGIN {
    if (g < 0.99 * s || g > s) { printf "main inclusive %d of %d samples\n", g, s; exit 1 }
    printf "ok   main inclusive %d of %d samples (%.2f %%)\n", g, s, 100 * g / s }' ||
    fail "main's inclusive time is not the whole run"
"$gprof" -b -q "$ELF" gmon.out >graph.txt
awk '/^\[[0-9]+\]/ && $0 !~ /<cycle/ { print $(NF - 1), $2 }' graph.txt | sort >graph.pct
awk -v s="$base" '
    FNR == NR { incl[$1] = $2; next }
    {
        # absent: less than half a sample, rounded to none
        share = 100 * incl[$1] / s; d = share - $2; if (d < 0) d = -d
        if (d > worst) worst = d
        if (d > 0.07) { printf "%s: inclusive %.3f %%, gprof %.1f %%\n", $1, share, $2; bad = 1 }
        n++
    }
    END {
        if (bad) exit 1
        printf "ok   inclusive shares of %d functions equal gprof'"'"'s call graph (worst %.3f points)\n", n, worst
    }' \
    inclusive.txt graph.pct || fail "inclusive time differs from gprof's call graph"

# 5. Exact call counts: "caller callee count" from the calls= lines, the
# names uncompressed ("(id) name" defines, "(id)" refers).
awk '
    function name(s,   id) {
        if (match(s, /^\([0-9]+\)/)) {
            id = substr(s, 2, RLENGTH - 2); s = substr(s, RLENGTH + 1); sub(/^ /, "", s)
            if (s != "") fn[id] = s
            return fn[id]
        }
        return s
    }
    /^fn=/ { caller = name(substr($0, 4)) }
    /^cfn=/ { callee = name(substr($0, 5)) }
    /^calls=/ { split(substr($0, 7), c, " "); n[caller " " callee] += c[1] }
    END { for (k in n) print k, n[k] }' "$out" | sort >calls.txt
checked=0
expect_arcs calls.txt calls
while read -r _ kind a b _; do
    [ "$kind" = calls ] || continue
    got=$(awk -v f="$a" '$2 == f { n += $3 } END { print n + 0 }' calls.txt)
    [ "$got" = "$b" ] || fail "calls into $a: $got, expected $b"
    checked=$((checked + 1))
done <expect.txt
[ "$checked" -ge 15 ] || fail "only $checked call counts checked"
echo "ok   $checked call counts exactly as the demo made them"

# 6. Without DWARF.
"$objcopy" --strip-debug "$ELF" nodebug.elf
"$MCUPROF" convert "$IMG" --elf nodebug.elf --format callgrind 2>nodebug.err ||
    fail "convert with an ELF without DWARF failed: $(cat nodebug.err)"
grep -q 'no DWARF line table' nodebug.err || fail "no warning about the missing line table: $(cat nodebug.err)"
grep -qx 'positions: line' "$out" || fail "without DWARF, not 'positions: line'"
annotate >nodebug-self.txt
cmp -s self.txt nodebug-self.txt || fail "self samples without DWARF differ: $(diff self.txt nodebug-self.txt | head -4)"
echo "ok   without DWARF: positions: line, the same self samples of $(wc -l <self.txt) functions"
