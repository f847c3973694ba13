#!/bin/bash
# no_libc.sh - the target runtime calls no C library function (memcpy,
# memset ...) at any optimisation level: boards without a C library must
# link it. Builds the runtime with every table on (call paths, tasks,
# contexts, path tasks) for an M0, an M3 and an RV32 at -Os, -O1 and -O2,
# links the objects into one (ld -r) and checks each symbol still
# undefined: only the linker script's (__mcuprof_*, the profiled text's
# bounds) and libgcc's helpers (__aeabi_*, __*di3 ...) may be.
#
#   no_libc.sh <repo root> <arm gcc> <riscv gcc> <work dir>
set -u
root=$1 arm_gcc=$2 rv_gcc=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
defs="-DMCUPROF_CFG_PATHS=64 -DMCUPROF_CFG_PATH_DEPTH=12 -DMCUPROF_CFG_PATH_TASKS=4
      -DMCUPROF_CFG_TASKS=8 -DMCUPROF_CFG_CONTEXTS=16"
build() { # name gcc arch flags... (one core's three builds; its verdict in $work/name.*)
    local name=$1 gcc=$2 arch=$3 fail=0 checked=0
    shift 3
    for opt in -Os -O1 -O2; do
        local dir="$work/$name$opt" objs=()
        mkdir -p "$dir"
        for src in "$root"/target/common/*.c "$root"/target/"$arch"/*.c "$root"/target/"$arch"/*.S; do
            local obj="$dir/$(basename "$src").o"
            # shellcheck disable=SC2086
            if ! "$gcc" "$@" $opt $defs -ffreestanding -Wall -Wextra -Werror -c "$src" -o "$obj" \
                -I"$root/target/include" -I"$root/include" -I"$root/target/common" -I"$root/target/$arch" \
                2>"$dir/errors"; then
                echo "FAIL: $name $opt: $src does not compile:"
                cat "$dir/errors"
                fail=1
                continue
            fi
            objs+=("$obj")
        done
        "$gcc" "$@" -nostdlib -Wl,-r "${objs[@]}" -o "$dir/runtime.o" || { fail=1; continue; }
        local nm=${gcc%gcc}nm
        local bad
        bad=$("$nm" -u "$dir/runtime.o" | awk '{print $NF}' |
            grep -Ev '^(__mcuprof_[A-Za-z0-9_]+|__aeabi_[a-z0-9_]+|__(u?(div|mod)|mul|ashl|ashr|lshr|clz|ctz|ffs|popcount)[sd]i3|__gnu_mcount_nc|_mcount)$')
        if [ -n "$bad" ]; then
            local where
            where=$(for o in "${objs[@]}"; do "$nm" -u "$o" | awk '{print $NF}' | grep -qxF "$bad" &&
                basename "$o" .o; done | tr '\n' ' ')
            echo "FAIL: $name $opt: the runtime calls what a board without a C library lacks:" $bad "(in $where)"
            fail=1
        fi
        checked=$((checked + 1))
    done
    echo $fail >"$work/$name.fail"
    echo $checked >"$work/$name.checked"
}
# the three cores side by side (each build's files one after another)
build m0 "$arm_gcc" cortex-m -mcpu=cortex-m0 -mthumb >"$work/m0.log" 2>&1 &
build m3 "$arm_gcc" cortex-m -mcpu=cortex-m3 -mthumb >"$work/m3.log" 2>&1 &
build rv32 "$rv_gcc" riscv -march=rv32imac -mabi=ilp32 -misa-spec=2.2 >"$work/rv32.log" 2>&1 &
wait
fail=0
checked=0
for name in m0 m3 rv32; do
    cat "$work/$name.log"
    [ "$(cat "$work/$name.fail" 2>/dev/null)" = 0 ] || fail=1
    checked=$((checked + $(cat "$work/$name.checked" 2>/dev/null || echo 0)))
done
[ "$checked" = 9 ] || { echo "FAIL: $checked of 9 builds checked"; exit 1; }
[ $fail = 0 ] && echo "OK: the runtime at -Os, -O1 and -O2 on M0, M3 and RV32 needs no C library"
exit $fail
