#!/usr/bin/env bash
# hostile.sh MCUPROF GEN_ELF WORKDIR - `mcuprof check` on crafted ELFs
# (gen_elf.c): each is refused with one line, or read with its bad parts
# named and skipped; overlapping symbols give one finding per branch.
set -euo pipefail
mcuprof=$1
gen=$2
work=$3
mkdir -p "$work"
cd "$work"
bad=0
fail() {
    echo "FAIL $*"
    bad=1
}

# run NAME: check NAME.elf into NAME.out (stdout) and NAME.err, exit in $rc
run() {
    rc=0
    "$mcuprof" check "$1.elf" >"$1.out" 2>"$1.err" || rc=$?
}

# same NAME FILE TEXT: FILE holds exactly TEXT
same() {
    [ "$(cat "$2")" = "$3" ] || fail "$1: $2 is
$(cat "$2")
want
$3"
}

# A RISC-V ELF64 function symbol at 0xfffffffffffffffe of 4 bytes (its end
# wraps), one that runs past its section, a section that runs past the end
# of the address space: named, not read; the rest is checked.
"$gen" wrap wrap.elf
run wrap
[ "$rc" -eq 0 ] || fail "wrap.elf: exit $rc, want 0"
same wrap.elf wrap.err ''
same wrap.elf wrap.out "wrap.elf: -: warning: allocated sections that run past the end of the address space (1): their code is not read; fix: link the firmware again (the ELF is damaged)
wrap.elf: outside: warning: its symbol (0x12, 8 bytes) does not lie inside its section .text: its code is not checked; fix: give it the size of its code (.size in assembly)
wrap.elf: wrapped: warning: its symbol (0xfffffffffffffffe, 4 bytes) runs past the end of the address space: its code is not checked; fix: give it the size of its code (.size in assembly)
wrap.elf: -: note: mtvec is set at run time, so the ELF cannot show that the timer interrupt reaches mcuprof_trap_entry (point mtvec at the runtime's trap_vector)
wrap.elf: 0 errors, 3 warnings in 1 profiled functions"

# A symbol table that holds only the null symbol: refused like a stripped ELF.
"$gen" empty empty.elf
run empty
[ "$rc" -eq 1 ] || fail "empty.elf: exit $rc, want 1"
same empty.elf empty.out ''
same empty.elf empty.err 'mcuprof: error: empty.elf: the symbol table names no symbol (stripped?): check needs the ELF as linked'

# 64 allocated sections over the same 4 KB of the file: refused before
# their bytes are read.
"$gen" shared shared.elf
run shared
[ "$rc" -eq 1 ] || fail "shared.elf: exit $rc, want 1"
same shared.elf shared.out ''
same shared.elf shared.err "mcuprof: error: shared.elf: section .copy0: the allocated sections hold more bytes than the file ($(stat -c %s shared.elf)): they overlap in the file"

# 3000 units (push {lr}; bl __gnu_mcount_nc; b.w next unit), unit I named
# by a function symbol from it to the end of the code: each branch is a
# tail call from its unit to the next, 2999 in all (decoding every symbol's
# whole range found 4,498,500).
n=3000
"$gen" overlap $n overlap.elf
run overlap
[ "$rc" -eq 1 ] || fail "overlap.elf: exit $rc, want 1"
same overlap.elf overlap.err ''
got=$(grep -c ': error: jumps to ' overlap.out || true)
[ "$got" -eq $((n - 1)) ] || fail "overlap.elf: $got tail calls, want $((n - 1))"
grep -q '^overlap.elf: u00000: error: jumps to u00001 at 0x426 instead of calling it (a tail call)' overlap.out ||
    fail "overlap.elf: no tail call from u00000 to u00001 at 0x426"
grep -q '^overlap.elf: u02998: error: jumps to u02999 at 0x7942 instead of calling it (a tail call)' overlap.out ||
    fail "overlap.elf: no tail call from u02998 to u02999 at 0x7942"
[ "$(tail -1 overlap.out)" = "overlap.elf: 2999 errors, 0 warnings in 3000 profiled functions" ] ||
    fail "overlap.elf: last line $(tail -1 overlap.out)"
[ "$(wc -l <overlap.out)" -eq $n ] || fail "overlap.elf: $(wc -l <overlap.out) lines, want $n"

# A clean firmware of 2000 functions, 12 calls each: no finding.
"$gen" firmware 2000 firmware.elf
run firmware
[ "$rc" -eq 0 ] || fail "firmware.elf: exit $rc, want 0"
same firmware.elf firmware.err ''
same firmware.elf firmware.out 'firmware.elf: no findings in 2000 profiled functions'

[ "$bad" -ne 0 ] || echo "ok   every crafted ELF"
exit $bad
