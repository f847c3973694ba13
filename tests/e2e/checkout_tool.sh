#!/usr/bin/env bash
# checkout_tool.sh MCUPROF WORKDIR - a firmware project that includes a
# checkout's cmake/mcuprof.cmake, with no MCUPROF_TOOL and no mcuprof on
# the PATH, runs `mcuprof check` after the link with the tool built in
# that checkout (<checkout>/build*/hosttools/mcuprof). The checkout is
# made of links to this one's kit, its build tree holds a stand-in tool
# that logs its calls and runs MCUPROF; examples/user-project is built.
set -euo pipefail
mcuprof=$1
work=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
rm -rf "$work"
root=$work/checkout
mkdir -p "$root/examples" "$root/build-x/hosttools"
for d in cmake target include linker; do
    ln -s "$repo/$d" "$root/$d"
done
cp -r "$repo/examples/user-project" "$root/examples/"
cat >"$root/build-x/hosttools/mcuprof" <<SH
#!/bin/sh
echo "\$*" >>"$work/tool.log"
exec "$mcuprof" "\$@"
SH
chmod +x "$root/build-x/hosttools/mcuprof"
# a PATH without any mcuprof
path=$(tr ':' '\n' <<<"$PATH" | while read -r d; do [ -x "$d/mcuprof" ] || printf '%s:' "$d"; done)
PATH=${path%:} cmake -S "$root/examples/user-project" -B "$work/build" \
    -DCMAKE_TOOLCHAIN_FILE="$repo/cmake/toolchain-arm-none-eabi.cmake" >"$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; echo "FAIL the configuration fails"; exit 1; }
PATH=${path%:} cmake --build "$work/build" >"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; echo "FAIL the build fails"; exit 1; }
tool=$(sed -n 's/^MCUPROF_TOOL:FILEPATH=//p' "$work/build/CMakeCache.txt")
if [ "$tool" != "$root/build-x/hosttools/mcuprof" ]; then
    echo "FAIL MCUPROF_TOOL is '$tool', not the checkout's build-x/hosttools/mcuprof"
    exit 1
fi
if ! grep -qx "check $work/build/app.elf" "$work/tool.log" 2>/dev/null; then
    cat "$work/tool.log" 2>/dev/null || true
    echo "FAIL the link did not run 'mcuprof check $work/build/app.elf' with the checkout's tool"
    exit 1
fi
echo "ok   the checkout's build-x/hosttools/mcuprof checked app.elf after the link"
