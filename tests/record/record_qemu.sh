#!/usr/bin/env bash
# record_qemu.sh BOARD ELF WORK - `mcuprof record ELF` under QEMU, the
# board recognised from the ELF (no --board), and the profile checked
# against what the firmware knows it did:
#   exit 0; the summary line field by field: the board, recognised; a run
#     time; "firmware exited 0"; the samples and arcs of the image written
#     (--image, read by `mcuprof info --json`); nothing lost
#   the flat profile's top on stdout: at most 10 functions, hot_a first
#   the firmware's EXPECT lines (its console, --console) on the real gprof
#     reading the gmon.out written: exact arcs and calls, and each time
#     share within 1 point of the truth (the firmware's own tolerance is
#     wider)
#   nothing left behind: the temporary directory (TMPDIR) is empty
# Tools from the environment: MCUPROF, GPROF, GPROF_CHECK; and jq.
set -euo pipefail
board=$1
elf=$2
work=$3
test_name="record.$board.$(basename "$elf" .elf)"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/lib.sh"
: "${GPROF:?}" "${GPROF_CHECK:?}"

rm -rf "$work"
mkdir -p "$work/tmp"
cd "$work"
rc=0
TMPDIR=$work/tmp "$MCUPROF" record "$elf" --console console.log --image rec.img >out.txt 2>err.txt || rc=$?
[ "$rc" = 0 ] || { cat err.txt console.log >&2; fail "exit $rc"; }
[ -s gmon.out ] || fail "no gmon.out"

summary_fields err.txt
[[ $WHERE =~ ^$board\ under\ QEMU\ \(recognised:\ .*\)$ ]] || fail "where: '$WHERE', not $board recognised"
awk -v s="$SECONDS_RUN" 'BEGIN { exit !(s > 0 && s < 60) }' || fail "run time $SECONDS_RUN s"
[ "$ENDED" = "firmware exited 0" ] || fail "ended: '$ENDED'"
"$MCUPROF" info --json rec.img >info.json
want=$(image_samples rec.img)
[ "$SAMPLES" = "$want" ] || fail "samples: $SAMPLES, the image's $want"
[ "$SAMPLES" = "$(jq '.counters.samples_taken' info.json)" ] || fail "samples: $SAMPLES, not samples_taken (no missed periods)"
want=$(jq '.header.arcs_used' info.json)
[ "$ARCS" = "$want" ] || fail "arcs: $ARCS, the image's arcs_used $want"
[ "$LOST" = "nothing lost" ] || fail "lost: '$LOST'"
echo "ok   summary: $WHERE, ran $SECONDS_RUN s, $ENDED, $SAMPLES samples, $ARCS arcs, $LOST"

grep -q "^flat profile" out.txt || fail "no flat profile on stdout"
rows=$(awk '/% time/ { t = 1; next } t && /^ +[0-9]/' out.txt | wc -l)
[ "$rows" -ge 3 ] && [ "$rows" -le 10 ] || fail "flat profile has $rows rows, expected 3 to 10"
first=$(awk '/% time/ { getline; print $NF; exit }' out.txt)
[ "$first" = hot_a ] || fail "flat profile starts with $first, not hot_a"
echo "ok   flat profile: $rows rows, $first first"

grep '^EXPECT ' console.log | sed 's/^\(EXPECT share [^ ]* [^ ]*\) [0-9.]*$/\1 1/' >expect.txt
grep -q '^EXPECT share .* 1$' expect.txt || fail "the firmware printed no time share"
grep -q '^EXPECT arc ' expect.txt || fail "the firmware printed no arc"
"$GPROF" -b -p "$elf" gmon.out >flat.txt
"$GPROF" -b -q "$elf" gmon.out >graph.txt
"$GPROF_CHECK" --flat flat.txt --graph graph.txt --expect expect.txt || fail "gprof on record's gmon.out"
echo "ok   gprof: $(grep -c '^EXPECT arc' expect.txt) exact arcs, $(grep -c '^EXPECT share' expect.txt) shares within 1 point"

[ -z "$(ls -A tmp)" ] || fail "left in TMPDIR: $(ls -A tmp)"
echo "$test_name: all checks passed"
