#!/usr/bin/env bash
# link_budget.sh OBJDIR LINKER_SCRIPT - the histogram RAM budget of
# linker/mcuprof.ld, on the objects of examples/user-project built without
# CMake (OBJDIR): the finest bins that fit are chosen, exactly at the
# boundaries; a budget that cannot hold 16-byte bins, or an explicit bin
# size that overruns it, fails the link with the fragment's message.
set -euo pipefail
objs=$1
script=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
linker_dir=$here/../../linker
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0

link() { # link OUT [ld options...]: 0 if it linked
    local out=$1
    shift
    arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -nostartfiles -nostdlib -T "$script" -L"$linker_dir" \
        -Wl,--build-id "$objs"/app_*.o "$objs"/rt_*.o -lgcc -o "$work/$out" "$@" 2>"$work/$out.err"
}
sym() { # sym ELF NAME: the symbol's value in decimal
    local v
    v=$(arm-none-eabi-nm "$work/$1" | awk -v n="$2" '$3 == n { print $1 }')
    echo $((16#$v))
}
check() { # check WHAT GOT WANT
    if [ "$2" = "$3" ]; then
        echo "ok   $1: $2"
    else
        echo "FAIL $1: got $2, want $3"
        bad=1
    fi
}

link default.elf || { cat "$work/default.elf.err"; exit 1; }
check "no budget: 16-byte bins" "$(sym default.elf __mcuprof_bin_shift)" 4
start=$(sym default.elf __mcuprof_text0_start)
end=$(sym default.elf __mcuprof_text0_end)
hist() { # histogram bytes with 2^$1-byte bins, as the fragment computes them
    local b=$((1 << $1))
    echo $(((((end + b - 1) & ~(b - 1)) - (start & ~(b - 1))) / b * 2))
}

for shift in 1 2 3 4; do
    need=$(hist $shift)
    link "fit$shift.elf" -Wl,--defsym=__mcuprof_hist_budget="$need" ||
        { cat "$work/fit$shift.elf.err"; exit 1; }
    check "budget $need (2^$shift-byte bins fit exactly)" "$(sym "fit$shift.elf" __mcuprof_bin_shift)" $shift
    check "histogram of that link" "$(sym "fit$shift.elf" __mcuprof_hist_bytes)" "$need"
    [ "$shift" -lt 4 ] || continue
    link "under$shift.elf" -Wl,--defsym=__mcuprof_hist_budget="$((need - 1))" ||
        { cat "$work/under$shift.elf.err"; exit 1; }
    check "budget $((need - 1)) (one byte short: the next size up)" \
        "$(sym "under$shift.elf" __mcuprof_bin_shift)" $((shift + 1))
done

short=$(($(hist 4) - 1))
if link short.elf -Wl,--defsym=__mcuprof_hist_budget="$short"; then
    check "budget $short, below 16-byte bins" "linked" "a failed link"
else
    grep -q "mcuprof: the histogram does not fit __mcuprof_hist_budget" "$work/short.elf.err" &&
        check "budget $short, below 16-byte bins" "the link fails with the fragment's message" \
            "the link fails with the fragment's message" ||
        { cat "$work/short.elf.err"; check "budget $short" "another error" "the fragment's message"; }
fi
if link explicit.elf -Wl,--defsym=__mcuprof_hist_budget="$(hist 4)" -Wl,--defsym=__mcuprof_bin_shift=2; then
    check "explicit 4-byte bins over the budget" "linked" "a failed link"
else
    check "explicit 4-byte bins over the budget" "a failed link" "a failed link"
fi
link coarse.elf -Wl,--defsym=__mcuprof_hist_budget="$(hist 4)" -Wl,--defsym=__mcuprof_bin_shift=6 ||
    { cat "$work/coarse.elf.err"; exit 1; }
check "explicit 64-byte bins within the budget" "$(sym coarse.elf __mcuprof_bin_shift)" 6
# A script without REGION_ALIAS("MCUPROF_RAM", ...): ld itself only warns
# and puts the image at address 0; the fragment must fail the link.
grep -v 'REGION_ALIAS("MCUPROF_RAM"' "$script" >"$work/no_alias.ld"
if arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -nostartfiles -nostdlib -T "$work/no_alias.ld" -L"$linker_dir" \
    -L"$(dirname "$script")" -Wl,--build-id "$objs"/app_*.o "$objs"/rt_*.o -lgcc -o "$work/no_alias.elf" \
    2>"$work/no_alias.elf.err"; then
    check "no REGION_ALIAS for MCUPROF_RAM" "linked" "a failed link"
elif grep -q "mcuprof: memory region MCUPROF_RAM is not declared" "$work/no_alias.elf.err"; then
    check "no REGION_ALIAS for MCUPROF_RAM" "the link fails with the fragment's message" \
        "the link fails with the fragment's message"
else
    cat "$work/no_alias.elf.err"
    check "no REGION_ALIAS for MCUPROF_RAM" "another error" "the fragment's message"
fi
[ "$bad" -eq 0 ] || exit 1
echo "link_budget: all checks passed"
