#!/usr/bin/env bash
# demo.sh [BOARD] - the whole mcuprof flow on one QEMU board (default
# mps2-an385; any board in boards/, Cortex-M or RISC-V): build the host
# tool and the demo firmware (compiled with -pg), run it under QEMU, where
# it writes its profile image through semihosting, convert the image to
# gmon.out and print gprof's flat profile and call graph. Output files land
# in build/demo-BOARD/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
board=${1:-mps2-an385}
build=${MCUPROF_BUILD_DIR:-$root/build}
out=$build/demo-$board
jobs=$(nproc 2>/dev/null || echo 2)

tools=$("$root/ci/qemu/board-tools.sh" "$board") || exit 2

"$root/ci/install-deps.sh" --demo

echo "== building the host tool"
cmake -S "$root" -B "$build/host" -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build/host" -j "$jobs" >/dev/null
mcuprof=$build/host/hosttools/mcuprof

echo "== building the demo firmware for $board"
cmake -S "$root/examples/demo" -B "$out" -DMCUPROF_BOARD="$board" \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-$tools.cmake" >/dev/null
cmake --build "$out" -j "$jobs" >/dev/null

echo "== running it under QEMU ($board)"
rm -f "$out/mcuprof.img"
"$root/ci/qemu/run.sh" "$board" "$out/demo.elf" --workdir "$out" |
    grep -v '^EXPECT'

echo "== mcuprof convert"
"$mcuprof" convert "$out/mcuprof.img" -o "$out/gmon.out"
"$mcuprof" info "$out/mcuprof.img" | sed -n '/^not recorded/,$p'

echo "== $tools-gprof -b $out/demo.elf $out/gmon.out"
"$tools-gprof" -b "$out/demo.elf" "$out/gmon.out"
