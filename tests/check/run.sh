#!/usr/bin/env bash
# run.sh MCUPROF ARM_GCC RV_GCC WORKDIR - `mcuprof check` on small
# assembled firmware: every finding it must report (and only those), a
# clean firmware, and bad input (not an ELF, stripped, no -pg code, another
# architecture): one error line each, exit 1, no crash.
set -euo pipefail
mcuprof=$1
arm_gcc=$2
rv_gcc=$3
work=$4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$work"
cd "$work"
bad=0
fail() {
    echo "FAIL $*"
    bad=1
}

# expect NAME RC [PATTERN...]: run check on NAME, want exit RC and each
# PATTERN (grep -E) on its own line of the output, and nothing else that
# reports an error or warning.
expect() {
    local elf=$1 want=$2 rc=0 n=0
    shift 2
    "$mcuprof" check "$elf" >out.txt 2>err.txt || rc=$?
    [ "$rc" -eq "$want" ] || fail "$elf: exit $rc, want $want: $(cat out.txt err.txt)"
    for p in "$@"; do
        grep -qE "$p" out.txt err.txt || fail "$elf: no line matches '$p': $(cat out.txt err.txt)"
        n=$((n + 1))
    done
    got=$(cat out.txt err.txt | grep -cE ': (error|warning): ' || true)
    [ "$got" -eq "$n" ] || fail "$elf: $got findings, want $n: $(cat out.txt err.txt)"
    [ "$bad" -ne 0 ] || echo "ok   $elf"
}

if [ -n "$arm_gcc" ] && [ "$arm_gcc" != "CHECK_ARM_GCC-NOTFOUND" ]; then
    for f in arm_cases arm_clean arm_nopg; do
        "$arm_gcc" -mcpu=cortex-m3 -mthumb -nostdlib -I"$here" -T "$here/cases.ld" "$here/$f.S" -o $f.elf
    done
    "${arm_gcc%gcc}strip" arm_clean.elf -o arm_stripped.elf
    expect arm_cases.elf 1 \
        '^arm_cases.elf: clobbered: error: the prologue moves r11 into lr' \
        '^arm_cases.elf: malformed: error: the -pg call of __gnu_mcount_nc at 0x[0-9a-f]+ is not preceded by `push \{lr\}`' \
        '^arm_cases.elf: tail_caller: error: jumps to good at 0x[0-9a-f]+ instead of calling it' \
        '^arm_cases.elf: motor::Filter::step\(int\): error: jumps to good at 0x[0-9a-f]+ instead of calling it \(a tail call\): good.s hook sees motor::Filter::step\(int\).s caller' \
        '^arm_cases.elf: mcuprof_record: error: the runtime is built with -pg' \
        '^arm_cases.elf: Reset_Handler: error: runs before .data' \
        '^arm_cases.elf: packed1: warning: starts at 0x[0-9a-f]+, inside the 16-byte bin it shares with packed0.*; fix: -ffunction-sections and cmake/mcuprof_align.cmake on each object, as mcuprof_instrument\(\) does; without CMake, after compiling: cmake -P <mcuprof>/cmake/mcuprof_align.cmake <prefix>objcopy FILE\.o\.\.\.' \
        '^arm_cases.elf: SysTick: error: the vector at 0x3c leads to Default_Handler'
    "$mcuprof" check --no-demangle arm_cases.elf >raw.txt || true
    grep -q '^arm_cases.elf: _ZN5motor6Filter4stepEi: error: jumps to good' raw.txt ||
        fail "arm_cases.elf: check --no-demangle does not name _ZN5motor6Filter4stepEi: $(cat raw.txt)"
    expect arm_clean.elf 0
    grep -q '^arm_clean.elf: no findings in 2 profiled functions$' out.txt || fail "arm_clean.elf: $(cat out.txt)"
    expect arm_nopg.elf 1 '^mcuprof: error: arm_nopg.elf: no function calls __gnu_mcount_nc'
    expect arm_stripped.elf 1 '^mcuprof: error: arm_stripped.elf: no symbol table \(stripped\?\)'
else
    echo "skip the ARM cases: no arm-none-eabi-gcc"
fi
if [ -n "$rv_gcc" ] && [ "$rv_gcc" != "CHECK_RV_GCC-NOTFOUND" ]; then
    "$rv_gcc" -march=rv32imac -mabi=ilp32 -nostdlib -T "$here/cases.ld" "$here/rv_cases.S" -o rv_cases.elf
    expect rv_cases.elf 1 \
        '^rv_cases.elf: malformed: error: the -pg call of _mcount at 0x[0-9a-f]+ does not get ra in a0' \
        '^rv_cases.elf: tail_far: error: jumps to good' \
        '^rv_cases.elf: tail_near: error: jumps to good' \
        '^rv_cases.elf: tail_short: error: jumps to good'
    grep -q '^rv_cases.elf: -: note: mtvec is set at run time' out.txt || fail "rv_cases.elf: no mtvec note"
else
    echo "skip the RISC-V cases: no riscv64-unknown-elf-gcc"
fi
printf 'not an ELF\n' >text.elf
expect text.elf 1 '^mcuprof: error: text.elf: '
expect "$mcuprof" 1 'neither 32-bit ARM nor RISC-V'
expect missing.elf 1 '^mcuprof: error: missing.elf: '
for f in err.txt; do
    [ "$(wc -l <$f)" -le 1 ] || fail "more than one error line: $(cat $f)"
done
rc=0
"$mcuprof" check >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "check without an ELF: exit $rc, want 2"
exit $bad
