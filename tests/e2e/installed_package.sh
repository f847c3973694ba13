#!/usr/bin/env bash
# installed_package.sh BUILD WORK - install the kit from the build tree BUILD
# into WORK/prefix, then build examples/user-project against that install
# only: the project is copied out of the checkout (so it takes its
# find_package(mcuprof) branch) and configured afresh with CMAKE_PREFIX_PATH
# and the installed toolchain file. The firmware must use nothing from the
# checkout, `mcuprof check` must be the installed tool, and the firmware is
# then run and checked like e2e.user_project.cmake (check_firmware.sh, with
# the installed tool). Tools from the environment: GPROF, GPROF_CHECK.
set -euo pipefail

build=$1
work=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
: "${GPROF:?}" "${GPROF_CHECK:?}"

fail() {
    echo "installed_package: $*" >&2
    exit 1
}

rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install failed"; }
for f in bin/mcuprof lib/cmake/mcuprof/mcuprofConfig.cmake lib/cmake/mcuprof/mcuprofConfigVersion.cmake \
    share/mcuprof/cmake/mcuprof.cmake share/mcuprof/cmake/mcuprof_check.cmake \
    share/mcuprof/cmake/toolchain-arm-none-eabi.cmake share/mcuprof/cmake/toolchain-riscv64-unknown-elf.cmake \
    share/mcuprof/linker/mcuprof.ld share/mcuprof/linker/mcuprof_common.ld share/mcuprof/linker/mcuprof_image.ld \
    share/mcuprof/linker/mcuprof_insert.ld share/mcuprof/include/mcuprof/image.h share/mcuprof/target/include/mcuprof.h \
    share/mcuprof/hosttools/gdb/mcuprof.gdb share/mcuprof/hosttools/openocd/mcuprof.tcl; do
    [ -e "$prefix/$f" ] || fail "the install has no $f"
done
echo "ok   installed in $prefix"

cp -R "$src/examples/user-project" "$work/project"
cmake -S "$work/project" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_TOOLCHAIN_FILE="$prefix/share/mcuprof/cmake/toolchain-arm-none-eabi.cmake" \
    >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure failed"; }
cmake --build "$work/build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build failed"; }
grep -qx "MCUPROF_TOOL:FILEPATH=$prefix/bin/mcuprof" "$work/build/CMakeCache.txt" ||
    fail "mcuprof_instrument() does not run the installed tool: $(grep '^MCUPROF_TOOL' "$work/build/CMakeCache.txt")"
# nothing of the kit comes from the checkout
if grep -rlE "$src/(target|include|linker|cmake)\b" "$work/build" --exclude-dir=CMakeTmp >"$work/leaks.txt"; then
    fail "the build refers to the checkout: $(tr '\n' ' ' <"$work/leaks.txt")"
fi
echo "ok   examples/user-project built against the installed package"

MCUPROF=$prefix/bin/mcuprof bash "$here/check_firmware.sh" mps2-an385 "$work/build/app.elf" "$work/run" \
    "$here/user_project.expect"
