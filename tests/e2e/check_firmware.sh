#!/usr/bin/env bash
# check_firmware.sh BOARD ELF WORKDIR [EXPECT_FILE] - run one test firmware
# under QEMU and check its profile with the real tools:
#   1. run it (ci/qemu/run.sh, deterministic -icount); it writes mcuprof.img
#      through semihosting and prints its expectations on the console:
#        EXPECT ...         facts about calls and time (see gprof_check)
#        EXPECT-INFO K V    a value `mcuprof info` must print for field K
#      (firmware that prints nothing, like a user's, gets EXPECT_FILE);
#      what it prints through semihosting's console (SYS_WRITEC/WRITE0, as
#      picolibc's stdio does) comes on QEMU's stderr and counts too;
#   2. mcuprof convert, in the GNU format and the BSD format;
#   3. <gprof> -b -p and -q on each, judged by gprof_check;
#   4. mcuprof info, judged against the EXPECT-INFO lines.
# Tools come from the environment: MCUPROF, GPROF, GPROF_CHECK.
set -euo pipefail

board=$1
elf=$2
work=$3
expect_file=${4:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$here/../../ci/qemu/run.sh
: "${MCUPROF:?}" "${GPROF:?}" "${GPROF_CHECK:?}"

fail() {
    echo "check_firmware: $board: $(basename "$elf"): $*" >&2
    exit 1
}

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

"$MCUPROF" info "$work/mcuprof.img" >"$work/info.txt"

nranges=$(grep -c '^  range [0-9]' "$work/info.txt" || true)
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
    "$GPROF" -b -p "$elf" "$out" >"$work/flat.$format.txt"
    "$GPROF" -b -q "$elf" "$out" >"$work/graph.$format.txt"
    if [ -s "$work/expect.txt" ]; then
        echo "== gprof on the $format gmon.out"
        "$GPROF_CHECK" --flat "$work/flat.$format.txt" --graph "$work/graph.$format.txt" \
            --expect "$work/expect.txt" || fail "gprof_check failed on the $format output"
    fi
done

# The call hook's time must show under a name gprof displays: gprof hides
# symbols named like mcount (_mcount) and drops their samples from its
# total. `info --elf` charges bins as gprof does and counts what gprof hides.
"$MCUPROF" info "$work/mcuprof.img" --elf "$elf" >"$work/info-elf.txt" 2>/dev/null ||
    fail "mcuprof info --elf failed"
hidden=$(awk '$1 == "hidden_by_gprof" { print $2; exit }' "$work/info-elf.txt")
[ "$hidden" = "0.00" ] || fail "gprof hides $hidden samples of this firmware (info --elf)"
"$GPROF" -b -p -z "$elf" "$work/gmon.gnu" >"$work/flat-all.txt"
if grep -qw mcuprof_hook_record "$work/flat-all.txt"; then
    grep -qwE 'mcuprof_mcount|__gnu_mcount_nc' "$work/flat-all.txt" ||
        fail "gprof does not display the call hook's entry (see $work/flat-all.txt)"
    echo "ok   gprof displays the call hook's entry; nothing hidden"
fi

# `mcuprof info` prints "  name   value"; the value is the first word.
info_value() {
    awk -v k="$1" '$1 == k { print $2; exit }' "$work/info.txt"
}
# Sum of the samples in every range's bins ("... N samples").
binned_samples() {
    awk '$1 == "range" && $NF == "samples" { s += $(NF-1) } END { print s + 0 }' "$work/info.txt"
}

bad=0
while read -r _ key want; do
    case $key in
    saturated-bins)
        got=$(awk '$1 == "saturated" && $2 == "bins" { print $3; exit }' "$work/info.txt")
        ;;
    ranges) got=$nranges ;;
    samples-accounted)
        # every sample is in a bin or in a loss counter
        taken=$(info_value samples_taken)
        sum=$(($(binned_samples) + $(info_value lost_samples_saturated) + \
            $(info_value lost_samples_out_of_range) + $(info_value lost_samples_frozen)))
        got=no
        [ "$sum" = "$taken" ] && got=yes
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
[ "$bad" -eq 0 ] || { cat "$work/info.txt"; fail "mcuprof info does not match"; }
echo "check_firmware: $board: $(basename "$elf"): all checks passed"
