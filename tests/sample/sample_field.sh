#!/usr/bin/env bash
# sample_field.sh BOARD ELF WORKDIR - `mcuprof sample` on probe_split built
# as users build firmware (probe_split_field.elf: -Os -flto, thread_work
# running from RAM, a second code range): every check of sample_qemu.sh
# (shares within their bounds, the window's exact arcs, read by the real
# gprof). Then the names: thread_work (static under -flto) is the first
# code in .data, where a linker script's labels point too. The boards'
# labels and mcuprof's range symbols are local, so gprof names it
# thread_work; with a global label there (as many vendor scripts have:
# _sdata, __data_start), gprof names the function after the label, and
# `mcuprof check` says so while mcuprof's own outputs keep thread_work.
# Tools from the environment: MCUPROF, GPROF, GPROF_CHECK.
set -euo pipefail
board=$1
elf=$2
work=$3
test_name=sample.$board.field
# shellcheck source=../pull/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../pull/lib.sh"
: "${MCUPROF:?}" "${GPROF:?}"

bash "$(dirname "${BASH_SOURCE[0]}")/sample_qemu.sh" "$board" "$elf" "$work"

objcopy=${GPROF%gprof}objcopy
"$objcopy" --globalize-symbol=__data_start "$elf" "$work/global_label.elf"
case $("${GPROF%gprof}nm" "$work/global_label.elf" | awk '$3 == "__data_start" { print $2 }') in
[A-Z]) ;;
*) fail "objcopy made no global __data_start" ;;
esac
"$MCUPROF" check "$work/global_label.elf" >"$work/check.txt" 2>&1 || true
grep -q ': thread_work: warning: gprof names this function __data_start, a global label at its address' \
    "$work/check.txt" || { cat "$work/check.txt"; fail "check does not say that gprof names thread_work __data_start"; }
"$GPROF" -b -p "$work/global_label.elf" "$work/probe.gmon" | grep -q ' __data_start$' ||
    fail "gprof no longer names thread_work after the label: the check's warning is stale"
"$MCUPROF" report "$work/probe.gmon" --elf "$work/global_label.elf" >"$work/report.txt" 2>/dev/null
grep -q ' thread_work$' "$work/report.txt" || { cat "$work/report.txt"; fail "report does not name thread_work"; }
if grep -q ' __data_start$' "$work/report.txt"; then
    fail "report names a label as a function"
fi
# and without the global label, check has nothing to say about names
"$MCUPROF" check "$elf" >"$work/check_local.txt" 2>&1 || true
if grep -q 'gprof names this function' "$work/check_local.txt"; then
    fail "check warns about a label on the firmware as built"
fi
echo "$test_name: all checks passed"
