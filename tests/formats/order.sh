#!/usr/bin/env bash
# order.sh - `mcuprof convert --format order` on the demo's profile:
#   - the fragment lists workload_run's callees in the order its source
#     calls them (run_calls, fib, is_even, apply_ops, tail_caller, hot_a,
#     hot_b, hot_c), after main and workload_run, each once;
#   - every line is an input section pattern a linker script accepts, and
#     GNU ld parses the fragment (INCLUDEd in a script it links with);
#   - without --elf the format is refused and nothing is written.
set -euo pipefail
: "${MCUPROF:?}" "${ELF:?}" "${IMG:?}" "${WORK:?}" "${BOARD:?}"
rm -rf "$WORK"
mkdir -p "$WORK"
fail() { echo "order: $BOARD: $*" >&2; exit 1; }

out=$WORK/order.ld
"$MCUPROF" convert "$IMG" --elf "$ELF" --format "order:$out"
grep -v '^[/ ]\*' "$out" | sed -n 's/^\*(\.text\.\(.*\))$/\1/p' >"$WORK/names"
[ "$(wc -l <"$WORK/names")" -eq "$(grep -vc '^[/ ]\*' "$out")" ] || fail "a line is not *(.text.NAME)"
[ "$(sort "$WORK/names" | uniq -d | wc -l)" -eq 0 ] || fail "a function is listed twice"

pos() { grep -nx "$1" "$WORK/names" | cut -d: -f1; }
prev=0
for f in main workload_run run_calls fib is_even apply_ops tail_caller hot_a hot_b hot_c; do
    p=$(pos "$f")
    [ -n "$p" ] || fail "$f is not listed"
    [ "$p" -gt "$prev" ] || fail "$f (line $p) comes before the function called before it (line $prev)"
    prev=$p
done
echo "ok   first-call order: main workload_run run_calls fib is_even apply_ops tail_caller hot_a hot_b hot_c"
grep -q 'cache lines' "$out" || fail "no cache-line summary"

# GNU ld reads it: a script that INCLUDEs it in .text, linking an empty object.
prefix=arm-none-eabi
case $BOARD in riscv*|sifive*) prefix=riscv64-unknown-elf ;; esac
if command -v "$prefix-ld" >/dev/null; then
    printf 'SECTIONS { .text : { INCLUDE %s *(.text*) } }\n' "$out" >"$WORK/link.ld"
    echo 'void main_stub(void) {}' | "$prefix-gcc" -x c -c -ffunction-sections -o "$WORK/stub.o" -
    "$prefix-ld" -T "$WORK/link.ld" -o "$WORK/stub.elf" "$WORK/stub.o" || fail "$prefix-ld rejects the fragment"
    echo "ok   $prefix-ld links with the fragment"
fi

if "$MCUPROF" convert "$IMG" --format "order:$WORK/noelf.ld" 2>"$WORK/noelf.err"; then
    fail "--format order without --elf was accepted"
fi
[ ! -e "$WORK/noelf.ld" ] || fail "a refused --format order left a file"
echo "ok   refused without --elf: $(cat "$WORK/noelf.err")"
