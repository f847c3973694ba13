#!/usr/bin/env bash
# path_depth.sh [BOARD [DEPTH...]] - how much of the picture deep
# recursion leaves whole: tests/e2e/firmware/paths_deep.c (the demo's
# is_even/is_odd 21 deep, a recursion 101 deep, a quicksort; PATHS 64, -O2)
# built with each PATH_DEPTH (5 and up; default 8 12 16 24 32) and run on
# BOARD (default mps2-an385) under QEMU; prints, per workload, the share of
# samples in whole paths and in paths whose root side is right
# (bench/RESULTS.md, docs/paths.md "Deep paths"). Builds in
# $BUILD/bench-path-depth (BUILD defaults to build/).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
board=${1:-mps2-an385}
[ $# -gt 0 ] && shift
depths=${*:-8 12 16 24 32}
prefix=arm-none-eabi
case $board in riscv* | sifive*) prefix=riscv64-unknown-elf ;; esac
out=${BUILD:-$root/build}/bench-path-depth
for d in $depths; do
    bin=$out/$board-$d
    cmake -S "$root/tests/e2e/firmware" -B "$bin" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-$prefix.cmake" \
        -DMCUPROF_BOARD="$board" -DCMAKE_BUILD_TYPE=Release -DMCUPROF_E2E_PATH_DEPTH="$d" >/dev/null
    cmake --build "$bin" --target paths_deep.elf >/dev/null
    mkdir -p "$bin/run"
    echo "PATH_DEPTH $d"
    "$root/ci/qemu/run.sh" "$board" "$bin/paths_deep.elf" --workdir "$bin/run" | grep '^DEEP'
done
