#!/usr/bin/env bash
# build-without-cmake.sh OUTDIR - the same firmware built with plain
# compiler commands: the "Without CMake" commands of docs/instrumenting.md
# for Cortex-M, with warnings as errors (e2e.readme_recipe.* runs the
# manual's own).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MCUPROF=$(cd "$here/../.." && pwd)
out=$1
mkdir -p "$out"
cd "$out"

CPU="-mcpu=cortex-m3 -mthumb"
RT_INC="-I$MCUPROF/target/include -I$MCUPROF/target/common -I$MCUPROF/target/cortex-m -I$MCUPROF/include"

# the application: -pg and exact tail calls, each function in a section
# of its own, no GCC clones (gprof charges them to the function before
# them); startup code marks its pre-.data functions no_instrument_function
NOCLONES="-fno-ipa-cp -fno-ipa-sra -fno-partial-inlining -fno-reorder-blocks-and-partition"
for f in main.c startup.c; do
    arm-none-eabi-gcc $CPU -O2 -ffreestanding -Wall -Wextra -Werror -pg -fno-optimize-sibling-calls -fno-ipa-icf -ffunction-sections \
        -falign-functions=16 $NOCLONES -I"$MCUPROF/target/include" -c "$here/$f" -o "app_${f%.c}.o"
done
# every code section raised to the 16-byte histogram bin
cmake -P "$MCUPROF/cmake/mcuprof_align.cmake" arm-none-eabi-objcopy app_main.o app_startup.o
# the runtime: never with -pg
for f in "$MCUPROF"/target/common/*.c "$MCUPROF"/target/cortex-m/*.c "$MCUPROF"/target/cortex-m/*.S; do
    arm-none-eabi-gcc $CPU -O2 -ffreestanding -Wall -Wextra -Werror $RT_INC -c "$f" -o "rt_$(basename "$f").o"
done
# link with -pg (what -flto takes it from)
arm-none-eabi-gcc $CPU -O2 -pg -nostartfiles -nostdlib -T "$here/app.ld" -L"$MCUPROF/linker" -Wl,--build-id \
    app_*.o rt_*.o -lgcc -o app.elf
