#!/usr/bin/env bash
# build-smoke.sh BOARD OUT.elf - build the smoke firmware (ci/qemu/smoke) for
# a board with the CPU flags, sources and linker script of its manifest
# (boards/boards.sh), as CMake's mcuprof_board_load() gets them. The linker
# looks for mcuprof.ld in $MCUPROF_LINKER_DIR (default: the repository's
# linker/). CC overrides the compiler (default: the board's TOOL_PREFIX-gcc).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
boards="$repo/boards"

# shellcheck source=../../boards/boards.sh
. "$boards/boards.sh"

usage() {
    echo "usage: $0 BOARD OUT.elf" >&2
    exit 2
}

[ $# -eq 2 ] || usage
board=$1
out=$2
mcuprof_board_load "$board" || exit 2
linker_dir=${MCUPROF_LINKER_DIR:-$repo/linker}
if [ ! -f "$linker_dir/mcuprof.ld" ]; then
    echo "$0: $linker_dir/mcuprof.ld not found (set MCUPROF_LINKER_DIR)" >&2
    exit 1
fi
cc=${CC:-$TOOL_PREFIX-gcc}
$cc "${BOARD_CPU_FLAGS[@]}" "${BOARD_DEFINES[@]}" \
    -std=c11 -Os -g -ffreestanding -ffunction-sections -fdata-sections \
    -Wall -Wextra -Werror \
    -I "$boards/include" -I "$BOARD_DIR" -I "$ARCH_DIR" -I "$RUNTIME_ARCH_DIR" -I "$here/smoke" \
    "${BOARD_SOURCE_FILES[@]}" "$here/smoke/smoke.c" "$here/smoke/smoke_$BOARD_ARCH.c" \
    -nostartfiles -nostdlib -Wl,--gc-sections -Wl,--build-id \
    -L "$BOARD_DIR" -L "$ARCH_DIR" -L "$linker_dir" -T memory.ld \
    -Wl,-Map="$out.map" \
    -o "$out" -lgcc
