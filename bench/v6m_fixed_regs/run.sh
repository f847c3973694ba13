#!/usr/bin/env bash
# run.sh [BUILD_DIR] - what -ffixed-r8 -ffixed-r9 -ffixed-r10 -ffixed-r11
# (added by mcuprof_instrument() on ARMv6-M / v8-M Baseline) costs: code
# size of the sort's functions and instructions of the whole sort under
# QEMU -icount shift=0 on the microbit (16 SysTick/TIMER0 counts per 1000
# instructions, so +-63 instructions), with and without the flags.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$here/../..
build=${1:-/tmp/mcuprof-v6m-fixed-regs}
cmake -S "$here" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-arm-none-eabi.cmake" \
    -DCMAKE_BUILD_TYPE=Release --no-warn-unused-cli >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
printf '%-6s %-6s %10s %10s %14s\n' size flags partition quicksort instructions
for size in small big; do
    for v in plain fixed; do
        elf=$build/${size}_$v.elf
        bytes() { echo $((16#$(arm-none-eabi-nm -S "$elf" | awk -v f="$1" '$4 == f { print $2 }'))); }
        mkdir -p "$build/run-${size}_$v"
        ticks=$("$root/ci/qemu/run.sh" microbit "$elf" --icount-shift 0 --workdir "$build/run-${size}_$v" |
            awk '$1 == "ticks" { print $2 }')
        printf '%-6s %-6s %10s %10s %14s\n' "$size" "$v" "$(bytes partition)" "$(bytes quicksort)" \
            "$((ticks * 1000 / 16))"
    done
done
