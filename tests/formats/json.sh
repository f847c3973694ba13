#!/usr/bin/env bash
# json.sh - the JSON document of the demo's profile (--format json,
# info --json), read by jq:
#   - `info --json` prints exactly what `convert --format json` writes,
#     with --elf and without (then no functions);
#   - the machine is the board's, the counters are what `mcuprof info`
#     prints (the sampler's timing_flags and deferred_samples too);
#   - every EXPECT arc, calls and noarc of the demo is the JSON's count
#     (arcs by caller and callee name, a function's calls);
#   - the functions' self samples, shown and hidden, with the samples
#     outside every function add up to the binned total, which is the sum
#     of the ranges' samples; gprof_total is what the shown ones hold; the
#     demo's EXPECT shares are self / samples_total within 1 point;
#   - each function's source lines add up to its self samples;
#   - mcuprof reads the document back (info --json on it) and prints the
#     same bytes.
# Environment (tests/formats/CMakeLists.txt): MCUPROF ELF IMG WORK BOARD.
set -euo pipefail
uart=$(dirname "$IMG")/uart.log

fail() {
    echo "json.sh: $BOARD: $*" >&2
    exit 1
}

rm -rf "$WORK"
mkdir -p "$WORK"
doc=$WORK/demo.json
grep -q '^EXPECT ' "$uart" || fail "no EXPECT lines in $uart"
"$MCUPROF" convert "$IMG" --elf "$ELF" --format "json:$doc"
jq -e '.schema == "mcuprof-profile" and .version == 1' "$doc" >/dev/null ||
    fail "jq does not read $doc as a version 1 mcuprof profile"
q() { # the value of a jq expression on the document
    jq -r "$@" "$doc"
}

"$MCUPROF" info --json "$IMG" --elf "$ELF" >"$WORK/info.json"
cmp "$doc" "$WORK/info.json" || fail "info --json --elf differs from convert --format json"
"$MCUPROF" convert "$IMG" --format "json:$WORK/noelf.json"
"$MCUPROF" info --json "$IMG" >"$WORK/info-noelf.json"
cmp "$WORK/noelf.json" "$WORK/info-noelf.json" || fail "info --json differs from convert --format json"
jq -e '.elf == null and (has("functions") | not) and .arcs[0].caller == null' "$WORK/noelf.json" >/dev/null ||
    fail "without --elf the document names functions"

case $BOARD in
riscv*) machine=243 ;;
*) machine=40 ;;
esac
[ "$(q .machine.e_machine)" = "$machine" ] || fail "machine $(q .machine.e_machine), the board's is $machine"

"$MCUPROF" info "$IMG" >"$WORK/info.txt"
for k in samples_taken missed_periods missed_source arc_table_repairs lost_arcs_table_full lost_calls_reentrant \
    lost_calls_frozen lost_samples_out_of_range lost_samples_saturated lost_samples_frozen; do
    text=$(awk -v k="$k" '$1 == k { print $2; exit }' "$WORK/info.txt")
    json=$(q --arg k "$k" '.counters[$k] // .counters.lost[$k]')
    [ -n "$text" ] && [ "$text" = "$json" ] || fail "counters: $k is $json, mcuprof info says '$text'"
done
[ "$(q .build_id)" = "$(awk '$1 == "build-id" { print $2 }' "$WORK/info.txt")" ] || fail "build_id differs from info's"
# The sampler's timing: always in the counters (0: nothing measured); the
# deferred samples as info prints them when the runtime measured them.
jq -e '.counters.timing_flags >= 0 and .counters.deferred_samples >= 0' "$doc" >/dev/null ||
    fail "counters: no timing_flags or deferred_samples"
if [ $(($(q .counters.timing_flags) & 1)) -ne 0 ]; then
    text=$(awk '$1 == "deferred_samples" { print $2; exit }' "$WORK/info.txt")
    [ "$text" = "$(q .counters.deferred_samples)" ] ||
        fail "counters: deferred_samples is $(q .counters.deferred_samples), mcuprof info says '$text'"
fi
jq -e '(has("late") | not) or ([.late.entries[] | .missed] | add // 0) <= .counters.missed_periods' "$doc" \
    >/dev/null || fail "the late-sample table charges more periods than missed_periods"

# Calls: the firmware counted them itself.
arcs() { # arcs CALLER CALLEE: their calls ('*': any caller)
    q --arg a "$1" --arg b "$2" '[.arcs[] | select(($a == "*" or .caller == $a) and .callee_name == $b) | .count]
        | add // 0'
}
n=0
while read -r _ kind a b count; do
    case $kind in
    arc) got=$(arcs "$a" "$b") ;;
    calls)
        count=$b
        got=$(q --arg f "$a" '[.functions[] | select(.name == $f) | .calls] | add // 0')
        [ "$got" = "$(arcs '*' "$a")" ] || fail "$a: calls $got, its arcs $(arcs '*' "$a")"
        ;;
    noarc) got=$(arcs "$a" "$b") count=0 ;;
    *) continue ;;
    esac
    [ "$got" = "$count" ] || fail "$kind $a $b: the JSON says $got calls, the firmware counted $count"
    n=$((n + 1))
done < <(grep '^EXPECT \(arc\|calls\|noarc\) ' "$uart")
[ "$n" -gt 0 ] || fail "no EXPECT arc in $uart"

# Time: every binned sample is some function's, or outside every one.
jq -e '([.ranges[].samples] | add // 0) as $binned
    | ([.functions[] | select(.hidden | not) | .self] | add // 0) as $shown
    | def near(a; b): (a - b) as $d | (if $d < 0 then -$d else $d end) <= 1e-6 * (b + 1);
      $binned == .counters.binned and $binned > 0
      and near($shown + .attribution.outside + .attribution.hidden; $binned)
      and near($shown; .attribution.gprof_total)' "$doc" >/dev/null ||
    fail "self samples $(q '[.functions[] | select(.hidden | not) | .self] | add') + outside" \
        "$(q .attribution.outside) + hidden $(q .attribution.hidden) is not the binned $(q .counters.binned)"
while read -r _ _ fn share _; do
    got=$(q --arg f "$fn" '[.functions[] | select(.name == $f) | .self] | add // 0 | . * 10000 / $total | round / 100' \
        --argjson total "$(q .samples_total)")
    awk -v a="$got" -v b="$share" 'BEGIN { d = a - b; exit !(d <= 1 && d >= -1) }' ||
        fail "$fn: $got % of the samples, the firmware expects $share (within 1)"
    echo "$BOARD: $fn $got % of the samples (expected $share)"
done < <(grep '^EXPECT share ' "$uart")

# Source lines: a function's lines hold its self samples.
if [ "$(q .lines_missing)" = false ]; then
    jq -e '.functions as $f | [.lines[] | select(.function_index != null)] | group_by(.function_index)
        | length > 0 and all(.[]; (map(.samples) | add) as $s | $f[.[0].function_index].self as $self
            | ($s - $self) < 1e-6 * ($self + 1) and ($self - $s) < 1e-6 * ($self + 1))' "$doc" >/dev/null ||
        fail "a function's source lines do not add up to its self samples"
fi

# Read back by mcuprof's reader, written again: the same bytes.
"$MCUPROF" info --json "$doc" >"$WORK/back.json" || fail "mcuprof does not read $doc back"
cmp "$doc" "$WORK/back.json" || fail "read back and written again, $doc changed"
echo "$BOARD: $(wc -c <"$doc") bytes, $(q '.functions | length') functions, $(q '.arcs | length') arcs," \
    "$n EXPECT counts exact, read back byte for byte"
