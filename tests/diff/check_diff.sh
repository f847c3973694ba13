#!/usr/bin/env bash
# check_diff.sh BOARD FWDIR WORKDIR - `mcuprof diff` on profiles whose
# difference is known (firmware/diff_work.c):
#
#   A against B   exit 3; --fail-calls 0 names d alone (100 -> 120 calls,
#                 the arc main -> d too); --fail-time 10 names c alone
#                 (self time +50 %); --fail-share 1 names c with the
#                 largest change, and every other function it names only
#                 lost share because the total grew: its self time did not
#                 change. Shares as the units say: c 20/95 -> 30/105.
#   the same, as gmon.out (GNU for A, BSD for B) and as JSON documents of
#   `convert --format json`: the same thresholds.
#   A against A, A against A2 (other addresses) and A against A run at
#   another clock (other sampling instants): no change passes a threshold
#   of 0, exit 0.
#   Refused: a gmon.out without its ELF (1), a usage error (2).
#
# MCUPROF names the host tool.
set -euo pipefail
board=$1 fw=$2 work=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$here/../../ci/qemu/run.sh
: "${MCUPROF:?set MCUPROF to the mcuprof binary}"

fail() {
    echo "check_diff: $board: $*" >&2
    exit 1
}

rm -rf "$work"
mkdir -p "$work"

# run NAME ELF [run.sh options]: the image in $work/NAME/mcuprof.img
run_fw() {
    local name=$1 elf=$2
    shift 2
    mkdir -p "$work/$name"
    "$run" "$board" "$elf" --workdir "$work/$name" --timeout 120 "$@" >"$work/$name/uart.log" 2>&1 ||
        { cat "$work/$name/uart.log" >&2; fail "$name: the firmware failed (console above)"; }
    [ -s "$work/$name/mcuprof.img" ] || fail "$name: no mcuprof.img written"
}

# diff OUT [args]: mcuprof diff's stdout in OUT, its exit status in $rc
diff_to() {
    local out=$1
    shift
    rc=0
    "$MCUPROF" diff "$@" >"$out" 2>"$out.err" || rc=$?
}

# field OUT SECTION KEY N: field N of KEY's row in SECTION ("" if none)
field() {
    awk -v sec="$2" -v key="$3" -v n="$4" '
        /^[A-Z]/ { in_sec = index($0, sec) == 1 }
        in_sec && /^  / && $1 == key { print $n; exit }' "$1"
}

# passed OUT OPTION: the functions a threshold line names for OPTION, sorted
passed() {
    awk -v opt="$2" '/^Thresholds:/ { t = 1; next }
        t && index($0, "passes " opt " ") { sub(/^  /, ""); sub(/: .*/, ""); print }' "$1" | sort
}

# near VALUE WANT TOLERANCE
near() {
    awk -v v="$1" -v w="$2" -v t="$3" 'BEGIN { d = v - w; if (d < 0) d = -d; exit !(v != "" && d <= t) }'
}

a=$fw/diff_a.elf b=$fw/diff_b.elf a2=$fw/diff_a2.elf
run_fw a "$a"
run_fw b "$b"
run_fw a2 "$a2"
# one step faster per instruction: the sampler's ticks land elsewhere
run_fw a_clock "$a" --icount-shift 4

# ---- A against B ---------------------------------------------------------
out=$work/a_b.txt
diff_to "$out" "$work/a/mcuprof.img" "$work/b/mcuprof.img" --elf-a "$a" --elf-b "$b" \
    --fail-calls 0 --fail-time 10 --fail-share 1 --top 0
cat "$out"
[ "$rc" = 3 ] || fail "A against B: exit $rc, expected 3 ($(cat "$out.err"))"
[ "$(passed "$out" --fail-calls)" = d ] || fail "--fail-calls 0 names '$(passed "$out" --fail-calls)', not d alone"
[ "$(field "$out" "Calls per function" d 2)" = 100 ] || fail "d: A calls are not 100"
[ "$(field "$out" "Calls per function" d 3)" = 120 ] || fail "d: B calls are not 120"
arc=$(awk '/^Calls per arc/ { s = 1; next } s && $1 == "main" && $3 == "d" { print $4, $5; exit }' "$out")
[ "$arc" = "100 120" ] || fail "arc main -> d: '$arc', not 100 120"
[ "$(passed "$out" --fail-time)" = c ] || fail "--fail-time 10 names '$(passed "$out" --fail-time)', not c alone"
near "$(field "$out" "Self time" c 4 | tr -d +)" 50 2 || fail "c: self time change is not +50 % +- 2"
# c: the largest share change, and 20/95 -> 30/105 of the samples
first=$(awk '/^Share of all samples/ { s = 1; next } s && /^  / && $1 != "function" { print $1; exit }' "$out")
[ "$first" = c ] || fail "the largest share change is '$first', not c"
near "$(field "$out" "Share of all samples" c 2)" 21.05 0.5 || fail "c: share A is not 20/95 = 21.05 % +- 0.5"
near "$(field "$out" "Share of all samples" c 4)" 28.57 0.5 || fail "c: share B is not 30/105 = 28.57 % +- 0.5"
passed "$out" --fail-share | grep -qx c || fail "--fail-share 1 does not name c"
# every other function named lost share to c only: its self time stands
for f in $(passed "$out" --fail-share); do
    [ "$f" = c ] && continue
    star=$(awk -v key="$f" '/^Self time/ { s = 1; next } s && $1 == key { print $NF; exit }' "$out")
    [ "$star" != "*" ] || fail "$f: named by --fail-share and its self time changed significantly"
    # no row: the self time is the same to the sample
    change=$(field "$out" "Self time" "$f" 4 | tr -d +)
    near "${change:-0}" 0 1 || fail "$f: named by --fail-share but its self time changed by $change %"
done
grep -q "step (diff_work.c)" "$out" && grep -q "step (diff_other.c)" "$out" ||
    fail "the two static step()s are not told apart by file"

# ---- the same as gmon.out -----------------------------------------------
"$MCUPROF" convert "$work/a/mcuprof.img" --elf "$a" --format gnu -o "$work/a.gmon" 2>/dev/null
"$MCUPROF" convert "$work/b/mcuprof.img" --elf "$b" --format bsd -o "$work/b.gmon" 2>/dev/null
diff_to "$work/gmon.txt" "$work/a.gmon" "$work/b.gmon" --elf-a "$a" --elf-b "$b" \
    --fail-calls 0 --fail-time 10 --fail-share 1 --top 0
[ "$rc" = 3 ] || fail "gmon.out A against B: exit $rc, expected 3 ($(cat "$work/gmon.txt.err"))"
sed -n '/^Thresholds:/,$p' "$out" >"$work/t_img"
sed -n '/^Thresholds:/,$p' "$work/gmon.txt" >"$work/t_gmon"
cmp -s "$work/t_img" "$work/t_gmon" || fail "gmon.out and image thresholds differ: $(diff "$work/t_img" "$work/t_gmon")"

# ---- the same as JSON documents (their own names, no ELF) ---------------
"$MCUPROF" convert "$work/a/mcuprof.img" --elf "$a" --format json -o "$work/a.json" 2>/dev/null
"$MCUPROF" convert "$work/b/mcuprof.img" --elf "$b" --format json -o "$work/b.json" 2>/dev/null
diff_to "$work/json.txt" "$work/a.json" "$work/b.json" --fail-calls 0 --fail-time 10 --fail-share 1 --top 0
[ "$rc" = 3 ] || fail "JSON A against B: exit $rc, expected 3 ($(cat "$work/json.txt.err"))"
sed -n '/^Thresholds:/,$p' "$work/json.txt" >"$work/t_json"
cmp -s "$work/t_img" "$work/t_json" || fail "JSON and image thresholds differ: $(diff "$work/t_img" "$work/t_json")"

# ---- no change -----------------------------------------------------------
for pair in "a a $a $a" "a a2 $a $a2" "a a_clock $a $a"; do
    set -- $pair
    out=$work/$1_$2.txt
    opts=(--fail-calls 0 --fail-share 0)
    # at another clock the run takes another time: only the shares compare
    [ "$2" = a_clock ] || opts+=(--fail-time 0)
    diff_to "$out" "$work/$1/mcuprof.img" "$work/$2/mcuprof.img" --elf-a "$3" --elf-b "$4" "${opts[@]}"
    [ "$rc" = 0 ] || { cat "$out"; fail "$1 against $2: exit $rc, expected 0"; }
    grep -q "^Calls per function (exact): 0 changed" "$out" || fail "$1 against $2: call counts changed"
    grep -q "^Share of all samples.* 0 significantly" "$out" || { cat "$out"; fail "$1 against $2: a significant share change"; }
done
echo "A against A at another clock:"
sed -n '/^samples/p; /^Share of all samples/,/^$/p' "$work/a_a_clock.txt"

# ---- refused -------------------------------------------------------------
diff_to "$work/noelf.txt" "$work/a.gmon" "$work/b.gmon"
[ "$rc" = 1 ] || fail "a gmon.out without its ELF: exit $rc, expected 1"
[ "$(wc -l <"$work/noelf.txt.err")" = 1 ] && grep -q "a.gmon: no function names" "$work/noelf.txt.err" ||
    fail "a gmon.out without its ELF: not one error naming the file: $(cat "$work/noelf.txt.err")"
diff_to "$work/usage.txt" "$work/a.gmon"
[ "$rc" = 2 ] || fail "one profile: exit $rc, expected 2"
echo "check_diff: $board: passed"
