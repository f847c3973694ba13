#!/usr/bin/env bash
# align_script.sh PREFIX WORKDIR - cmake/mcuprof_align.cmake on objects of
# the PREFIX toolchain (arm-none-eabi or riscv64-unknown-elf): every code
# section is raised to 16 bytes (to 32 with -DMCUPROF_ALIGN=32), whatever
# its name (.text.*, .text.unlikely.*, .ramfunc) and however many sections
# share it; one that asks for more keeps it; data sections are left alone;
# as a compiler launcher it runs a launcher of the user's first, fails when
# the compiler fails, and aligns what -o names.
set -euo pipefail
prefix=$1
work=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
script=$here/../../cmake/mcuprof_align.cmake
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() {
    echo "FAIL align_script: $prefix: $*" >&2
    exit 1
}

case $prefix in
arm-none-eabi) asflags=(-mcpu=cortex-m3) ret="bx lr" cflags=(-mcpu=cortex-m3 -mthumb) ;;
riscv64-unknown-elf) asflags=(-march=rv32imac -mabi=ilp32) ret="ret" cflags=(-march=rv32imac -mabi=ilp32) ;;
*) echo "PREFIX is arm-none-eabi or riscv64-unknown-elf" >&2; exit 2 ;;
esac
cat >sections.s <<EOF2
    .section .text.plain,"ax",%progbits
    .p2align 1
f_plain: $ret
    .section .text.unlikely.cold,"ax",%progbits
    .p2align 1
f_cold: $ret
    .section .text.dup,"ax",%progbits,unique,1
    .p2align 1
f_dup1: $ret
    .section .text.dup,"ax",%progbits,unique,2
    .p2align 1
f_dup2: $ret
    .section .text.wide,"ax",%progbits
    .p2align 6
f_wide: $ret
    .section .ramfunc,"awx",%progbits
    .p2align 2
f_ram: $ret
    .section .rodata.table,"a",%progbits
    .p2align 2
table: .word 1
EOF2
"$prefix-as" "${asflags[@]}" sections.s -o sections.o

# want OBJ NAME... ALIGN: every section NAME of OBJ has 2**ALIGN
want() {
    local obj=$1 name=$2 pow=$3 got
    got=$("$prefix-objdump" -h -w "$obj" | awk -v n="$name" '$2 == n { print $7 }' | sort -u | tr '\n' ' ')
    [ "$got" = "2**$pow " ] || fail "$obj: $name has alignment '$got', want 2**$pow"
}

cp sections.o a16.o
cmake -P "$script" "$prefix-objcopy" a16.o
for s in .text.plain .text.unlikely.cold .text.dup .ramfunc; do want a16.o $s 4; done
want a16.o .text.wide 6
want a16.o .rodata.table 2

cp sections.o a32.o
cmake -DMCUPROF_ALIGN=32 -P "$script" "$prefix-objcopy" a32.o
for s in .text.plain .text.unlikely.cold .text.dup .ramfunc; do want a32.o $s 5; done
want a32.o .text.wide 6

# Launcher mode: a launcher of the user's runs first, -o is aligned.
cat >launcher.sh <<'EOF2'
#!/bin/sh
echo "$*" >launched.txt
exec "$@"
EOF2
chmod +x launcher.sh
printf '__attribute__((cold)) int cold_fn(int x) { return x + 1; }\nint hot_fn(int x) { return cold_fn(x) * 2; }\n' >unit.c
cmake -P "$script" --compile "$(command -v "$prefix-objcopy")" "$(command -v "$prefix-objdump")" 16 -- \
    ./launcher.sh "$prefix-gcc" "${cflags[@]}" -Os -ffunction-sections -DALIGN=4 -c unit.c -o unit.o
grep -q -- "-c unit.c -o unit.o" launched.txt || fail "the user's launcher did not run the compiler"
want unit.o .text.unlikely.cold_fn 4
want unit.o .text.hot_fn 4

# A failing compile fails the launcher, and leaves no object.
printf 'int broken(void) { return }\n' >broken.c
if cmake -P "$script" --compile "$prefix-objcopy" "$prefix-objdump" 16 -- \
    "$prefix-gcc" "${cflags[@]}" -c broken.c -o broken.o >broken.log 2>&1; then
    fail "a compile error did not fail the launcher"
fi
[ ! -e broken.o ] || fail "a failed compile left broken.o"
grep -q 'error' broken.log || fail "the compiler's error was not shown: $(cat broken.log)"

echo "ok   mcuprof_align.cmake on $prefix objects"
