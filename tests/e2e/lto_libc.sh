#!/usr/bin/env bash
# lto_libc.sh WORKDIR - with -flto, -pg goes on the link command too, and
# there arm-none-eabi-gcc asks for -lc_p, newlib's profiling C library,
# which is not shipped: linker/libc_p/newlib/libc_p.a (-lc) and
# linker/libc_p/nano/libc_p.a (-lc_nano) stand in for it. For newlib,
# newlib-nano, and each with rdimon semihosting: the link succeeds, the
# code made at link calls the hook, and the C library linked is the one
# the specs name (never newlib and newlib-nano mixed). Links only.
set -euo pipefail
work=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
libc_p=$here/../../linker/libc_p
rm -rf "$work"
mkdir -p "$work"
cd "$work"
bad=0
cpu="-mcpu=cortex-m3 -mthumb"

cat >app.c <<'C'
#include <stdio.h>
#include <string.h>
__attribute__((noinline)) int scale(int x) { return x * 3 + 1; }
int main(void)
{
    char b[16];
    snprintf(b, sizeof(b), "%d", scale(3));
    return (int)strlen(b);
}
C
# a stand-in hook, compiled without LTO or -pg: pops the word -pg pushed
cat >hook.c <<'C'
__attribute__((naked)) void __gnu_mcount_nc(void) { __asm__ volatile("pop {ip}\n bx ip"); }
C
arm-none-eabi-gcc $cpu -O2 -c hook.c -o hook.o

# SPECS   LIBC_P_DIR  the C library archive the link must use (and not the other)
while read -r specs dir want other; do
    specs=${specs//,/ }
    name=${specs//--specs=/}
    name=${name// /+}
    # shellcheck disable=SC2086
    arm-none-eabi-gcc $cpu -O2 -flto -pg $specs -c app.c -o "app_$name.o"
    # shellcheck disable=SC2086
    if ! arm-none-eabi-gcc $cpu -O2 -flto -pg $specs -L"$libc_p/$dir" "app_$name.o" hook.o \
        -o "$name.elf" -Wl,-Map="$name.map" 2>"$name.err"; then
        cat "$name.err"
        echo "FAIL $specs: the link with -pg fails"
        bad=1
        continue
    fi
    calls=$(arm-none-eabi-objdump -d "$name.elf" | grep -c 'bl.*<__gnu_mcount_nc>$' || true)
    libs=$(grep -o 'lib[a-z_]*\.a' "$name.map" | sort -u | tr '\n' ' ')
    if [ "$calls" -ne 2 ]; then
        echo "FAIL $specs: $calls calls of the hook, want 2 (main, scale)"
        bad=1
    elif ! grep -qwF "$want" <<<"$libs" || grep -qwF "$other" <<<"$libs"; then
        echo "FAIL $specs: linked $libs; want $want, not $other"
        bad=1
    else
        echo "ok   $specs with libc_p/$dir: the hook called in main and scale; linked $libs"
    fi
done <<'LIST'
--specs=nosys.specs newlib libc.a libc_nano.a
--specs=nano.specs,--specs=nosys.specs nano libc_nano.a libc.a
--specs=rdimon.specs newlib libc.a libc_nano.a
--specs=nano.specs,--specs=rdimon.specs nano libc_nano.a libc.a
LIST
[ "$bad" -eq 0 ] || exit 1
echo "lto_libc: all checks passed"
