#!/usr/bin/env bash
# check_firmware.sh BOARD ELF WORKDIR [EXPECT_FILE] - run one test firmware
# under QEMU and check its profile with the real tools:
#   1. run it (ci/qemu/run.sh, deterministic -icount); it writes mcuprof.img
#      through semihosting and prints its expectations on the console:
#        EXPECT ...         facts about calls and time (see gprof_check)
#        EXPECT-INFO K V    a value `mcuprof info` must report for field K
#      (firmware that prints nothing, like a user's, gets EXPECT_FILE);
#      what it prints through semihosting's console (SYS_WRITEC/WRITE0, as
#      picolibc's stdio does) comes on QEMU's stderr and counts too;
#   2. mcuprof convert, in the GNU format and the BSD format;
#   3. <gprof> -b -p and -q on each, judged by gprof_check;
#   4. mcuprof info --json, read by jq, judged against the EXPECT-INFO lines:
#      K is a counter (samples_taken, missed_periods, lost_*, ...), "used"
#      (arcs recorded), "ranges", "saturated-bins" or "samples-accounted"
#      (every sample is in a bin, a loss counter or held off, and the bins
#      hold the missed periods charged to them: yes or no).
# Tools come from the environment: MCUPROF, GPROF, GPROF_CHECK; and jq.
# GPROF_FLAGS adds options to gprof's (--no-demangle: for EXPECT lines that
# name C++ functions by their symbols, as a demangled name has spaces).
set -euo pipefail

board=$1
elf=$2
work=$3
expect_file=${4:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$here/../../ci/qemu/run.sh
: "${MCUPROF:?}" "${GPROF:?}" "${GPROF_CHECK:?}"
read -r -a gprof_flags <<<"${GPROF_FLAGS:-}"

fail() {
    echo "check_firmware: $board: $(basename "$elf"): $*" >&2
    exit 1
}
command -v jq >/dev/null || fail "jq not found (ci/install-deps.sh installs it)"

rm -rf "$work"
mkdir -p "$work"
rc=0
"$run" "$board" "$elf" --workdir "$work" --timeout 120 >"$work/uart.log" 2>"$work/stderr.log" || rc=$?
cat "$work/stderr.log" >&2
[ "$rc" -eq 0 ] || { cat "$work/uart.log"; fail "firmware exited with $rc (console above)"; }
[ -s "$work/mcuprof.img" ] || fail "no mcuprof.img written"

cat "$work/uart.log" "$work/stderr.log" >"$work/console.log"
grep '^EXPECT ' "$work/console.log" >"$work/expect.txt" || true
grep '^EXPECT-INFO ' "$work/console.log" >"$work/expect-info.txt" || true
[ -z "$expect_file" ] || cat "$expect_file" >>"$work/expect.txt"
[ -s "$work/expect.txt" ] || [ -s "$work/expect-info.txt" ] || fail "the firmware printed no expectations"

"$MCUPROF" info --json "$work/mcuprof.img" >"$work/info.json"

nranges=$(jq '.ranges | length' "$work/info.json")
formats="gnu bsd"
if [ "$nranges" -gt 1 ]; then
    # The BSD layout holds one range: convert must refuse, cleanly.
    formats=gnu
    if "$MCUPROF" convert "$work/mcuprof.img" -o "$work/gmon.bsd" --format bsd 2>"$work/bsd.err"; then
        fail "the BSD format accepted an image with $nranges ranges"
    fi
    [ ! -e "$work/gmon.bsd" ] || fail "a failed BSD convert left $work/gmon.bsd"
    [ "$(wc -l <"$work/bsd.err")" -eq 1 ] || fail "a failed BSD convert printed more than one line"
    echo "ok   the BSD format refuses $nranges ranges: $(cat "$work/bsd.err")"
fi

for format in $formats; do
    out=$work/gmon.$format
    "$MCUPROF" convert "$work/mcuprof.img" -o "$out" --format "$format"
    "$GPROF" "${gprof_flags[@]}" -b -p "$elf" "$out" >"$work/flat.$format.txt"
    "$GPROF" "${gprof_flags[@]}" -b -q "$elf" "$out" >"$work/graph.$format.txt"
    if [ -s "$work/expect.txt" ]; then
        echo "== gprof on the $format gmon.out"
        "$GPROF_CHECK" --flat "$work/flat.$format.txt" --graph "$work/graph.$format.txt" \
            --expect "$work/expect.txt" || fail "gprof_check failed on the $format output"
    fi
done

# The call hook's time must show under a name gprof displays: gprof hides
# symbols named like mcount (_mcount) and drops their samples from its
# total. `info --elf` charges bins as gprof does and counts what gprof hides
# (attribution.hidden; its text prints it with 2 decimals).
"$MCUPROF" info --json "$work/mcuprof.img" --elf "$elf" >"$work/info-elf.json" 2>/dev/null ||
    fail "mcuprof info --json --elf failed"
hidden=$(jq '.attribution.hidden' "$work/info-elf.json" | awk '{ printf "%.2f", $1 }')
[ "$hidden" = "0.00" ] || fail "gprof hides $hidden samples of this firmware (info --elf)"
# The runtime's own entry points (the hook's labels, one piece of
# assembly) share bins among themselves: that is hook time, never a
# shared bin to align away, so neither `info` nor its warnings name such a
# pair (test_trust's hook_bins: their samples stay under the hook's names).
runtime='(mcuprof_[a-z_]+|__gnu_mcount_nc|_mcount)'
"$MCUPROF" info "$work/mcuprof.img" --elf "$elf" >"$work/info-elf.txt" 2>"$work/info-elf.err"
if grep -E "(shared by .*|worst): $runtime \+ $runtime( \(|\$)" "$work/info-elf.txt" "$work/info-elf.err"; then
    fail "info gives advice about bins only the runtime's own entry points share (above)"
fi
"$GPROF" -b -p -z "$elf" "$work/gmon.gnu" >"$work/flat-all.txt"
if grep -qw mcuprof_hook_record "$work/flat-all.txt"; then
    grep -qwE 'mcuprof_mcount|__gnu_mcount_nc' "$work/flat-all.txt" ||
        fail "gprof does not display the call hook's entry (see $work/flat-all.txt)"
    echo "ok   gprof displays the call hook's entry; nothing hidden"
fi

# The value of field K of `mcuprof info --json`: a counter, a loss counter
# or a top-level member; "used" is the arc table's arcs_used.
info_value() {
    jq -r --arg k "$1" 'if $k == "used" then .header.arcs_used
        elif .counters | has($k) then .counters[$k]
        elif .counters.lost | has($k) then .counters.lost[$k]
        elif has($k) then .[$k]
        else empty end' "$work/info.json"
}
# Sum of the samples in every range's bins.
binned_samples() {
    jq '[.ranges[].samples] | add // 0' "$work/info.json"
}

bad=0
while read -r _ key want; do
    case $key in
    saturated-bins) got=$(info_value saturated_bins) ;;
    ranges) got=$nranges ;;
    samples-accounted)
        # every sample is in a bin, a loss counter or held off (binned
        # nowhere); with the missed periods charged (timing_flags bit 2)
        # the bins hold those missed before the samples not held off:
        #   bins + losses + held.samples
        #     == samples_taken + (missed_periods - held.periods)
        taken=$(info_value samples_taken)
        held=$(jq '.held.samples // 0' "$work/info.json")
        charged=$(jq 'if (.counters.timing_flags // 0) % 4 >= 2
            then .counters.missed_periods - (.held.periods // 0) else 0 end' "$work/info.json")
        sum=$(($(binned_samples) + $(info_value lost_samples_saturated) + \
            $(info_value lost_samples_out_of_range) + $(info_value lost_samples_frozen) + held))
        got=no
        [ "$sum" = "$((taken + charged))" ] && got=yes
        ;;
    *) got=$(info_value "$key") ;;
    esac
    if [ "$got" = "$want" ]; then
        echo "ok   info $key $want"
    else
        echo "FAIL info $key $want: mcuprof info says '${got}'"
        bad=1
    fi
done <"$work/expect-info.txt"
[ "$bad" -eq 0 ] || { "$MCUPROF" info "$work/mcuprof.img"; fail "mcuprof info does not match"; }
echo "check_firmware: $board: $(basename "$elf"): all checks passed"
