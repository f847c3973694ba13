#!/usr/bin/env bash
# no_calls.sh BOARD FWDIR WORKDIR - an image with samples and not one call:
# FWDIR/lto_link_without_pg.elf is the demo built with -O2 -flto and -pg
# on the compile command only, so the code made at link has no hook call.
# convert and report still succeed, but warn with the cause and the fix
# (with --elf: no function calls the hook; link with -pg); check fails on
# the ELF saying the same. FWDIR/lto_O2.elf, built right, gets no such
# warning. Tools from the environment: MCUPROF.
set -euo pipefail
board=$1
fw=$2
work=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$here/../../ci/qemu/run.sh
: "${MCUPROF:?}"
rm -rf "$work"
mkdir -p "$work"
bad=0
expect() { # expect WHAT FILE PATTERN: FILE has a line matching PATTERN
    if grep -q -- "$3" "$2"; then
        echo "ok   $1"
    else
        cat "$2"
        echo "FAIL $1: no line matching '$3' (above)"
        bad=1
    fi
}

for elf in lto_link_without_pg lto_O2; do
    mkdir -p "$work/$elf"
    "$run" "$board" "$fw/$elf.elf" --workdir "$work/$elf" --timeout 60 >"$work/$elf/uart.log" 2>&1 ||
        { cat "$work/$elf/uart.log"; echo "FAIL $elf.elf exits with an error"; exit 1; }
done

img=$work/lto_link_without_pg/mcuprof.img
elf=$fw/lto_link_without_pg.elf
hook=__gnu_mcount_nc
[ "$board" != riscv32-virt ] || hook=_mcount
"$MCUPROF" convert "$img" -o "$work/plain.out" 2>"$work/plain.err" ||
    { cat "$work/plain.err"; echo "FAIL convert without --elf fails"; exit 1; }
expect "convert without --elf: warns of no call, names -flto and -pg at link" "$work/plain.err" \
    "samples but no call was recorded: .*-flto, -pg .* must be on the link command"
"$MCUPROF" convert "$img" --elf "$elf" -o "$work/elf.out" 2>"$work/elf.err" ||
    { cat "$work/elf.err"; echo "FAIL convert --elf fails"; exit 1; }
expect "convert --elf: no function calls the hook, link with -pg" "$work/elf.err" \
    "samples but no call was recorded: no function of $elf calls $hook, .*link with -pg"
"$MCUPROF" report "$img" --elf "$elf" >"$work/report.txt" 2>"$work/report.err" ||
    { cat "$work/report.err"; echo "FAIL report fails"; exit 1; }
expect "report: the same warning" "$work/report.err" "no function of $elf calls $hook"
if "$MCUPROF" check "$elf" >"$work/check.txt" 2>&1; then
    echo "FAIL check passes an ELF where no function calls $hook"
    bad=1
fi
expect "check: the same cause" "$work/check.txt" "no function calls $hook: .*-flto: -pg must be on the link command"

"$MCUPROF" convert "$work/lto_O2/mcuprof.img" --elf "$fw/lto_O2.elf" -o "$work/good.out" 2>"$work/good.err"
if grep -q "no call was recorded" "$work/good.err"; then
    cat "$work/good.err"
    echo "FAIL lto_O2.elf, linked with -pg, gets the warning"
    bad=1
else
    echo "ok   lto_O2.elf, linked with -pg: no such warning"
fi
[ "$bad" -eq 0 ] || exit 1
echo "no_calls: all checks passed"
