#!/usr/bin/env bash
# record_board.sh WORK ARM_GCC BOARD=ELF... - which board `mcuprof record`
# runs firmware on, and its usage errors, QEMU never started:
#   each ELF is recognised as its BOARD without --board: --print-command
#     prints QEMU's command line with the board's machine (its qemu.conf)
#   an ELF no board runs: exit 2, one line listing every board: a host
#     ELF (the mcuprof executable), and with ARM_GCC (not "-") an ARMv7-M
#     ELF linked at 0x08000000, where no board has memory
#   an ELF two boards fit equally (with ARM_GCC: ARM code at 0 without
#     build attributes, which the micro:bit and the Cortex-M3 board both
#     run): exit 2, one line naming both, no guess
#   --board naming a board the ELF does not fit: one warning saying so,
#     and the run as asked
#   --board unknown: exit 2, one line listing the boards
#   QEMU missing (a PATH without it): exit 1, one line naming the Debian
#     package, no output written
# Tools from the environment: MCUPROF.
set -euo pipefail
work=$1
arm_gcc=$2
shift 2
test_name=record.board
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/lib.sh"
boards_dir=$here/../../boards

rm -rf "$work"
mkdir -p "$work"
cd "$work"
boards=$(cd "$boards_dir" && for d in */qemu.conf; do echo "${d%/qemu.conf}"; done | LC_ALL=C sort | paste -sd, - | sed 's/,/, /g')

# NAME RC PATTERN -- ARGS: exit RC, one line on stderr matching PATTERN, no
# gmon.out; record runs with PATH=$record_path if set
expect_error() {
    local name=$1 want=$2 pattern=$3 rc=0
    shift 4
    rm -f gmon.out
    env PATH="${record_path:-$PATH}" "$MCUPROF" record "$@" >out.txt 2>err.txt || rc=$?
    [ "$rc" = "$want" ] || { cat err.txt >&2; fail "$name: exit $rc, expected $want"; }
    [ "$(wc -l <err.txt)" = 1 ] || { cat err.txt >&2; fail "$name: not one line"; }
    grep -q -- "$pattern" err.txt || { cat err.txt >&2; fail "$name: message"; }
    [ ! -e gmon.out ] || fail "$name: gmon.out written"
    echo "ok   $name: $(cat err.txt)"
}

for pair in "$@"; do
    board=${pair%%=*}
    elf=${pair#*=}
    machine=$(sed -n 's/^QEMU_MACHINE=//p' "$boards_dir/$board/qemu.conf")
    "$MCUPROF" record "$elf" --print-command >cmd.txt 2>err.txt || { cat err.txt >&2; fail "$board: --print-command failed"; }
    grep -q -- " -machine $machine " cmd.txt || fail "$(basename "$elf") not run as $board: $(cat cmd.txt)"
    grep -q -- " -kernel $elf " cmd.txt || fail "$board: no -kernel $elf: $(cat cmd.txt)"
    [ ! -s err.txt ] || fail "$board: --print-command says $(cat err.txt)"
    echo "ok   $(basename "$(dirname "$elf")")/$(basename "$elf") recognised as $board (-machine $machine)"
done

expect_error "host ELF" 2 "no board runs this firmware (ELF machine 62, .*); boards: $boards; name one with --board\$" -- "$MCUPROF"
if [ "$arm_gcc" != - ]; then
    printf '.thumb\n.syntax unified\n.global _start\n_start: b _start\n' >odd.s
    "$arm_gcc" -mcpu=cortex-m3 -mthumb -nostdlib -Wl,-Ttext=0x08000000 odd.s -o odd.elf
    "$arm_gcc" -mcpu=cortex-m0 -mthumb -nostdlib -Wl,-Ttext=0 odd.s -o plain.elf
    "${arm_gcc%gcc}objcopy" --remove-section .ARM.attributes plain.elf
    expect_error "ARM ELF without attributes" 2 "plain.elf: fits several boards equally (ARM 32-bit, no CPU attribute, no FPU, loaded from 0x0): microbit, mps2-an385; name one with --board\$" -- plain.elf
    expect_error "ARM ELF at 0x08000000" 2 "odd.elf: no board runs this firmware (ARM 32-bit, ARMv7-M, no FPU, loaded from 0x8000000); boards: $boards; name one with --board\$" -- odd.elf
fi
first=${1#*=}
"$MCUPROF" record "$first" --board mps2-an505 --print-command >cmd.txt 2>err.txt || { cat err.txt >&2; fail "--board mps2-an505: failed"; }
grep -q -- " -machine mps2-an505 " cmd.txt || fail "--board mps2-an505 not run as asked: $(cat cmd.txt)"
[ "$(wc -l <err.txt)" = 1 ] && grep -q "^mcuprof: warning: $first: board mps2-an505 does not run this firmware (ARM 32-bit, .*, loaded from 0x0): its core or its memory differ; run as asked\$" err.txt ||
    { cat err.txt >&2; fail "--board mps2-an505: no warning"; }
echo "ok   --board a board the ELF does not fit: $(cat err.txt)"
expect_error "unknown --board" 2 "unknown board 'nope'; known boards: $boards\$" -- "$first" --board nope
mkdir -p empty
# (one firmware of each architecture, run on its own board)
declare -A missing_seen
for pair in "$@"; do
    board=${pair%%=*}
    arch=$(sed -n 's/^BOARD_ARCH=//p' "$boards_dir/$board/qemu.conf")
    [ -z "${missing_seen[$arch]:-}" ] || continue
    missing_seen[$arch]=1
    case $arch in
    cortex-m) qemu=qemu-system-arm package=qemu-system-arm ;;
    *) qemu=qemu-system-riscv32 package=qemu-system-misc ;;
    esac
    record_path=$work/empty expect_error "QEMU missing ($board)" 1 "error: $qemu is not installed (board $board): install the Debian package $package\$" -- "${pair#*=}" --board "$board"
done
echo "$test_name: all checks passed"
