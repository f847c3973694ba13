#!/usr/bin/env bash
# board-tools.sh BOARD [KEY] - print the cross tool prefix of a board
# (arm-none-eabi, riscv64-unknown-elf), or with KEY another value of its
# manifest (BOARD_ARCH, QEMU_BIN, QEMU_MACHINE, BOARD_CORE, ...: see
# boards/boards.sh). Scripts use the prefix to pick the compiler, the
# toolchain file (cmake/toolchain-PREFIX.cmake) and gprof (PREFIX-gprof).
# board-tools.sh --list - print every board, one per line.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../boards/boards.sh
. "$root/boards/boards.sh"
case ${1:?usage: board-tools.sh BOARD [KEY] | --list} in
--list)
    mcuprof_boards
    exit 0
    ;;
esac
mcuprof_board_load "$1" || exit 2
key=${2:-TOOL_PREFIX}
case $key in
[A-Z]*[A-Z0-9_]) echo "${!key}" ;;
*) echo "board-tools.sh: not a key: $key" >&2; exit 2 ;;
esac
