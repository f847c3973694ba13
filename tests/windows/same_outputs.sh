#!/usr/bin/env bash
# same_outputs.sh WORKDIR INPUT... - the Windows build writes what
# the Linux build writes, byte for byte: for every image, every format
# (each alone, so one a build refuses is compared as a refusal), report,
# info and diff, with each run's exit status, stdout and stderr; then
# info on the gmon.out written. An INPUT is IMAGE, IMAGE:ELF, or
# qemu:BOARD:ELF (the firmware run under QEMU first for its image).
#
# With the image's ELF, the formats and commands that carry no source
# lines (gmon.out in both layouts, DOT, order, folded, report, diff) are
# compared byte for byte too. Source lines need libdw, which the Windows
# build lacks (docs/windows.md): the formats that hold them (JSON, pprof,
# callgrind) are written with one warning saying so, and the JSON
# document is the Linux build's without its line table and "file" and
# "line" fields ("lines_missing" is true).
set -euo pipefail
test_name=windows.same_outputs
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$1; shift
rm -rf "$work"
mkdir -p "$work"
files=0 runs=0 n=0 lacked=0
line_formats=(json pprof callgrind)
run=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/ci/qemu/run.sh
for spec in "$@"; do
    if [ "${spec%%:*}" = qemu ]; then
        # qemu:BOARD:ELF - the firmware run once under QEMU for its image
        IFS=: read -r _ board elf <<<"$spec"
        img=$work/qemu-$n/mcuprof.img
        mkdir -p "$work/qemu-$n"
        "$run" "$board" "$elf" --workdir "$work/qemu-$n" --timeout 120 >"$work/qemu-$n.log" 2>&1 ||
            { cat "$work/qemu-$n.log"; fail "$elf did not run under QEMU on $board"; }
    else
        img=${spec%%:*} elf=
        [ "$spec" != "$img" ] && elf=${spec#*:}
    fi
    [ -f "$img" ] || fail "no image $img"
    n=$((n + 1))
    for f in gnu bsd json pprof dot order folded folded-task callgrind; do
        same_run "$n-$f" convert "$img" --format "$f" -o out
    done
    same_run "$n-report" report "$img"
    same_run "$n-info" info "$img"
    same_run "$n-info-json" info --json "$img"
    same_run "$n-diff" diff "$img" "$img"
    same_run "$n-info-gmon" info "$work/lin/$n-gnu/out"
    [ -n "$elf" ] || continue
    for f in gnu bsd dot order folded folded-task; do
        same_run "$n-elf-$f" convert "$img" --elf "$elf" --format "$f" -o out
    done
    same_run "$n-elf-report" report "$img" --elf "$elf"
    same_run "$n-elf-report-graph" report "$img" --elf "$elf" --graph
    # diff matches static functions of one name by their source files
    lines_may_differ=1 same_run "$n-elf-diff" diff "$img" "$img" --elf "$elf"
    for f in "${line_formats[@]}"; do
        (cd "$work" && win convert "$img" --elf "$elf" --format "$f" -o "win-lines.$f" 2>"win-lines.$f.err") ||
            { cat "$work/win-lines.$f.err"; fail "$f with the ELF failed on Windows"; }
        grep -q "source lines need libdw, which this build of mcuprof lacks" "$work/win-lines.$f.err" ||
            { cat "$work/win-lines.$f.err"; fail "$f with the ELF: no warning that the lines are missing"; }
    done
    "$MCUPROF" convert "$img" --elf "$elf" --format json -o "$work/lin-lines.json" -q 2>/dev/null
    # the lines, and lines_missing (true: the Windows build read none)
    strip='del(.line_table, .lines, .lines_missing) | del(.. | .file?, .line?)'
    cmp <(jq -S "$strip" "$work/lin-lines.json") <(jq -S "$strip" "$work/win-lines.json") ||
        fail "the JSON documents differ beyond the source lines"
    runs=$((runs + 1))
done
echo "ok   $test_name: $n inputs, $runs runs, $files files byte-identical; $lacked runs where the Windows build said it lacks libdw; ${silent_retries:-0} runs again after Wine ended one without a word"
