#!/usr/bin/env bash
# json.sh - the JSON document of the demo's profile (--format json,
# info --json), read by jq:
#   - `info --json` prints exactly what `convert --format json` writes,
#     with --elf and without (then no functions);
#   - the machine is the board's, and every field of the image's header
#     is in the document as docs/formats/json.md maps it (read from the
#     image's bytes: counters, state, freeze words, geometry, the sampler's
#     timing_flags and deferred_samples);
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

# The image's header, field by field (mcuprof/image.h; the demo's boards
# are little-endian): FIELD OFFSET BYTES MEMBER, an unsigned field the
# document holds as it is.
[ "$(head -c 4 "$IMG")" = MCPF ] && [ "$(q .machine.big_endian)" = false ] ||
    fail "not a little-endian image, or the document says big_endian"
field() { od -An -tu"$2" -j "$1" -N "$2" "$IMG" | tr -d ' '; } # OFFSET BYTES
while read -r name off bytes member; do
    [ "$(field "$off" "$bytes")" = "$(q "$member")" ] ||
        fail "header $name is $(field "$off" "$bytes"), the document's $member $(q "$member")"
done <<'FIELDS'
version 4 2 .image_version
ptr_size 7 1 .machine.ptr_size
machine 8 2 .machine.e_machine
header_size 10 2 .header.header_size
image_size 12 4 .header.image_size
arcs_offset 24 4 .header.arcs_offset
arcs_capacity 28 4 .header.arcs_capacity
arcs_used 32 4 .header.arcs_used
arcs_used 32 4 .arcs|length
arc_record_size 36 2 .header.arc_record_size
hash_shift 38 2 .header.hash_shift
buckets_offset 40 4 .header.buckets_offset
nbuckets 44 4 .header.nbuckets
sample_rate_hz 48 4 .sample_rate_hz
bin_shift 52 1 .bin_shift
counter_bytes 53 1 .counter_bytes
nranges 54 1 .ranges|length
build_id_len 55 1 (.build_id//"")|length/2
state 184 4 .header.state
freeze_request 188 4 .header.freeze_request
freeze_ack 192 4 .header.freeze_ack
generation 196 4 .counters.generation
lost_arcs_table_full 200 4 .counters.lost.lost_arcs_table_full
lost_calls_reentrant 204 4 .counters.lost.lost_calls_reentrant
lost_calls_frozen 208 4 .counters.lost.lost_calls_frozen
lost_samples_out_of_range 212 4 .counters.lost.lost_samples_out_of_range
lost_samples_saturated 216 4 .counters.lost.lost_samples_saturated
lost_samples_frozen 220 4 .counters.lost.lost_samples_frozen
samples_taken 224 4 .counters.samples_taken
links_offset 228 4 .header.links_offset
missed_periods 232 4 .counters.missed_periods
timer_period 236 4 .counters.timer_period
missed_source 240 1 .counters.missed_source as $s | ["none", "mtime", "cyccnt", "clock"] | index($s)
jitter_percent 241 1 .counters.jitter_percent
arc_table_repairs 244 4 .counters.arc_table_repairs
ext_offset 248 4 .header.ext_offset
FIELDS
[ "$(q .header.image_addr)" = "$(printf '0x%x' "$(field 16 8)")" ] ||
    fail "header image_addr is $(printf '0x%x' "$(field 16 8)"), the document's $(q .header.image_addr)"
bid=$(od -An -tx1 -j 56 -N "$(field 55 1)" "$IMG" | tr -d ' \n')
[ "$(q '.build_id // ""')" = "$bid" ] || fail "header build_id is '$bid', the document's $(q .build_id)"
for ((i = 0; i < $(field 54 1); i++)); do
    r=$((88 + 24 * i))
    [ "$(q ".ranges[$i].low")" = "$(printf '0x%x' "$(field $r 8)")" ] &&
        [ "$(q ".ranges[$i].high")" = "$(printf '0x%x' "$(field $((r + 8)) 8)")" ] &&
        [ "$(q ".header.hist_offsets[$i]")" = "$(field $((r + 16)) 4)" ] &&
        [ "$(q ".ranges[$i].nbins")" = "$(field $((r + 20)) 4)" ] || fail "header ranges[$i] differs from the document's"
done
# the sampler's timing: the bits this mcuprof knows, and deferred samples
# only when the runtime measured them (timing_flags bit 1)
flags=$(($(field 242 2) & 0x37))
[ "$(q .counters.timing_flags)" = "$flags" ] || fail "header timing_flags $flags, the document's $(q .counters.timing_flags)"
deferred=0
[ $((flags & 1)) -eq 0 ] || deferred=$(field 252 4)
[ "$(q .counters.deferred_samples)" = "$deferred" ] ||
    fail "header deferred_samples $deferred, the document's $(q .counters.deferred_samples)"
names=
for bit in 1:arcs 2:sampling 4:frozen; do
    [ $(($(field 184 4) & ${bit%%:*})) -eq 0 ] || names=${names:+$names,}${bit#*:}
done
[ "$(q '.header.state_flags | join(",")')" = "$names" ] ||
    fail "header state $(field 184 4), the document's state_flags $(q '.header.state_flags | join(",")')"
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
