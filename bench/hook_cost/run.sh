#!/usr/bin/env bash
# run.sh [BOARD...] - instructions per instrumented call on each board
# (default: every board).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${MCUPROF_BUILD_DIR:-$root/build}/bench-hook-cost
[ $# -gt 0 ] || set -- microbit mps2-an385 mps2-an386 mps2-an505 riscv32-virt sifive-e riscv64-virt
for board in "$@"; do
    toolchain=$("$root/ci/qemu/board-tools.sh" "$board")
    cmake -S "$here" -B "$build/$board" -DMCUPROF_BOARD="$board" \
        -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-$toolchain.cmake" >/dev/null
    cmake --build "$build/$board" >/dev/null
    "$root/ci/qemu/run.sh" "$board" "$build/$board/hook_cost.elf" --icount-shift 0
done
