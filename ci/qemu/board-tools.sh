#!/usr/bin/env bash
# board-tools.sh BOARD - print the cross tool prefix for a board's
# architecture (arm-none-eabi or riscv64-unknown-elf), read from its
# board.cmake's family; scripts use it to pick the compiler, the toolchain
# file (cmake/toolchain-PREFIX.cmake) and gprof (PREFIX-gprof).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
board=${1:?usage: board-tools.sh BOARD}
cmake_file=$root/boards/$board/board.cmake
if [ ! -f "$cmake_file" ]; then
    echo "board-tools.sh: unknown board '$board'; known boards:" \
        "$(cd "$root/boards" && ls -d */board.cmake | sed 's,/board.cmake,,' | tr '\n' ' ')" >&2
    exit 2
fi
if grep -q 'common/riscv/' "$cmake_file"; then
    echo riscv64-unknown-elf
else
    echo arm-none-eabi
fi
