#!/usr/bin/env bash
# bench/paths_cost/run.sh [BOARD...] - the hook's and the sampler's cost in
# call-path builds with every table on (CONTEXTS 8, TASKS 8 with a watched
# task, PATHS 32): bench/hook_cost built that way for each board (default:
# mps2-an385 microbit riscv32-virt) and run under QEMU -icount shift=0.
# Prints the firmware's "hook" and "sampler*" lines (bench/hook_cost/main.c
# says what each measures). Builds go to ${MCUPROF_BUILD_DIR:-build}/bench.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${MCUPROF_BUILD_DIR:-$root/build}/bench/paths_cost
[ $# -gt 0 ] || set -- mps2-an385 microbit riscv32-virt
mkdir -p "$build"
for board in "$@"; do
    dir=$build/$board
    tc=$("$root/ci/qemu/board-tools.sh" "$board")
    cmake -S "$root/bench/hook_cost" -B "$dir" -DMCUPROF_BOARD="$board" \
        -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-$tc.cmake" -DBENCH_RUNTIME=ours \
        -DBENCH_CONTEXTS=8 -DBENCH_TASKS=8 -DBENCH_PATHS=32 >"$dir.log" 2>&1 ||
        { echo "paths_cost: configuring $board failed (see $dir.log)" >&2; exit 1; }
    cmake --build "$dir" -j2 >>"$dir.log" 2>&1 ||
        { echo "paths_cost: building $board failed (see $dir.log)" >&2; exit 1; }
    "$root/ci/qemu/run.sh" "$board" "$dir/hook_cost.elf" --icount-shift 0 --timeout 120 >"$dir/console.txt" ||
        { echo "paths_cost: $board failed: $(cat "$dir/console.txt")" >&2; exit 1; }
    grep -E '^(hook|sampler|check)' "$dir/console.txt"
done
