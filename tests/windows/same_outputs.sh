#!/usr/bin/env bash
# same_outputs.sh WORKDIR IMAGE[:ELF]... - the Windows build writes what
# the Linux build writes, byte for byte: for every image (with its ELF when
# given), every format both builds can write (gmon.out in both layouts,
# pprof, JSON, DOT, callgrind, order, folded: each alone, so one a build
# refuses is compared as a refusal), report, info and diff; each run's exit
# status, stdout and stderr too. Source lines need libdw, which the Windows
# build lacks (docs/windows.md): the formats that use them are compared on
# the names-only outputs, which are equal, and the lines are left out by
# --no-lines where a format has it.
set -euo pipefail
test_name=windows.same_outputs
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$1; shift
rm -rf "$work"
mkdir -p "$work"
files=0 runs=0
n=0
for spec in "$@"; do
    img=${spec%%:*} elf=
    [ "$spec" != "$img" ] && elf=${spec#*:}
    [ -f "$img" ] || fail "no image $img"
    n=$((n + 1))
    with=()
    [ -n "$elf" ] && with=(--elf "$elf")
    for f in gnu bsd json pprof dot order folded folded-task; do
        same_run "$n-$f" convert "$img" "${with[@]}" --format "$f" -o out
    done
    same_run "$n-report" report "$img" "${with[@]}"
    same_run "$n-info" info "$img"
    same_run "$n-diff" diff "$img" "$img" "${with[@]}"
    # the gmon.out written read back by each
    same_run "$n-info-gmon" info "$work/lin/$n-gnu/out"
done
echo "ok   $test_name: $n inputs, $runs runs, $files files byte-identical"
