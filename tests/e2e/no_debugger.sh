#!/usr/bin/env bash
# no_debugger.sh BOARD ELF WORKDIR - run the demo with semihosting off, as
# on a board with no debugger attached: the image write must fail cleanly
# (mcuprof_hardfault_isr turns the BKPT into an error) and the firmware run
# on to its end instead of locking up in HardFault. Its last act, the
# semihosting exit, fails the same way, so the board prints "exit 1" and
# then either ends QEMU through a device of its own (RISC-V virt's test
# device, exit code 1) or sleeps until the timeout (124).
set -euo pipefail
board=$1
elf=$2
work=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

rm -rf "$work"
mkdir -p "$work"
rc=0
"$here/../../ci/qemu/run.sh" "$board" "$elf" --workdir "$work" --no-semihosting \
    --timeout 4 >"$work/uart.log" 2>"$work/stderr.log" || rc=$?
cat "$work/uart.log"
fail() { echo "no_debugger: $board: $*" >&2; exit 1; }
[ "$rc" -eq 124 ] || [ "$rc" -eq 1 ] ||
    fail "expected the run to end with the firmware's exit code 1 or at the timeout (124), got $rc"
grep -q '^demo: semihosting write failed' "$work/uart.log" || fail "the failed write was not reported"
grep -q '^exit 1' "$work/uart.log" || fail "the firmware did not run on to its end"
[ ! -e "$work/mcuprof.img" ] || fail "an image was written without semihosting"
echo "no_debugger: $board: the write failed cleanly and the firmware ran on"
