#!/usr/bin/env bash
# build-smoke.sh BOARD OUT.elf - build the smoke firmware (ci/qemu/smoke) for
# a board with the same CPU flags, sources and linker script as board.cmake.
# The linker looks for mcuprof.ld in $MCUPROF_LINKER_DIR (default: the
# repository's linker/). CC overrides the compiler (arm-none-eabi-gcc, or
# riscv64-unknown-elf-gcc for a board whose cpu.flags say -march=rv...).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
boards="$repo/boards"

usage() {
    echo "usage: $0 BOARD OUT.elf" >&2
    exit 2
}

[ $# -eq 2 ] || usage
board=$1
out=$2
bdir="$boards/$board"
if [ -z "$board" ] || [ ! -f "$bdir/cpu.flags" ]; then
    known=()
    for f in "$boards"/*/cpu.flags; do
        known+=("$(basename "$(dirname "$f")")")
    done
    echo "$0: unknown board '$board'; known boards: ${known[*]}" >&2
    exit 2
fi
linker_dir=${MCUPROF_LINKER_DIR:-$repo/linker}
if [ ! -f "$linker_dir/mcuprof.ld" ]; then
    echo "$0: $linker_dir/mcuprof.ld not found (set MCUPROF_LINKER_DIR)" >&2
    exit 1
fi

# one flag per line, as board.cmake reads them
cpu_flags=()
while IFS= read -r flag; do
    [ -n "$flag" ] && cpu_flags+=("$flag")
done < "$bdir/cpu.flags"

# The architecture, from the flags: RISC-V boards pass -march=rv...
arch=cortex-m
for flag in "${cpu_flags[@]}"; do
    case $flag in -march=rv*) arch=riscv ;; esac
done

# Board sources as board.cmake lists them; the console is the board's own
# board.c, or the architecture's shared one.
if [ "$arch" = riscv ]; then
    common="$boards/common/riscv"
    startup="$common/startup.S"
    console="$common/qemu_virt.c"
    cc=${CC:-riscv64-unknown-elf-gcc}
    defs=()
else
    common="$boards/common/cortex-m"
    startup="$common/startup.c"
    console="$common/cmsdk_uart.c"
    cc=${CC:-arm-none-eabi-gcc}
    # as board-common.cmake's MCUPROF_BOARD_DEFINITIONS
    defs=(-DBOARD_SWI_HANDLER_IN_BOARD)
fi
[ ! -f "$bdir/board.c" ] || console="$bdir/board.c"
$cc "${cpu_flags[@]}" "${defs[@]}" \
    -std=c11 -Os -g -ffreestanding -ffunction-sections -fdata-sections \
    -Wall -Wextra -Werror \
    -I "$boards/include" -I "$bdir" -I "$common" -I "$here/smoke" \
    "$startup" "$common/board_common.c" "$boards/common/console.c" "$console" \
    "$here/smoke/smoke.c" "$here/smoke/smoke_$arch.c" \
    -nostartfiles -nostdlib -Wl,--gc-sections -Wl,--build-id \
    -L "$bdir" -L "$common" -L "$linker_dir" -T memory.ld \
    -Wl,-Map="$out.map" \
    -o "$out" -lgcc
