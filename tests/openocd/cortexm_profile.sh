#!/usr/bin/env bash
# cortexm_profile.sh BOARD ELF WORKDIR - OpenOCD's own PC sampling
# (`profile`) on its cortex_m target over the dap_fixture's Cortex-M: a
# gmon.out whose histogram holds every sample OpenOCD took, inside the
# firmware's code; through DWT_PCSR, and by halting when the core has no
# PCSR (dap_fixture --no-pcsr). OpenOCD reads PCSR 1024 times at least,
# each a stop of the core under QEMU: a test of its own.
# Tools from the environment: OPENOCD, OPENOCD_CFG (the cortexm config),
# DAP_FIXTURE, MCUPROF; arm-none-eabi-objdump.
set -euo pipefail
board=$1
elf=$2
test_name=openocd.cortexm.profile.$board
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$dir/lib.sh"
# shellcheck source=cortexm_lib.sh
. "$dir/cortexm_lib.sh"
start_cortexm "$board" "$elf" "$3"
# The firmware's code, from the ELF.
read -r text_lo text_hi < <(arm-none-eabi-objdump -h "$elf" |
    awk '$2 == ".text" { printf "0x%s 0x%s\n", $4, $3 }')
text_hi=$(printf '0x%08x' $((text_lo + text_hi)))

# OpenOCD's profile: through DWT_PCSR, then by halting (a core without PCSR).
gmon_check() { # FILE LOG: every sample in the histogram, inside the code
    local n low high bins sum
    n=$(sed -n 's/.*Profiling completed\. \([0-9]*\) samples\..*/\1/p' "$2")
    [ -n "$n" ] && [ "$n" -gt 0 ] || { cat "$2" >&2; fail "profile: no samples"; }
    # gmon.out: "gmon", version, 12 spare bytes, tag 0, low pc, high pc,
    # bins, rate, dimension (15 + 1 bytes): the 16-bit bins from byte 53
    read -r low high bins < <(od -An -tx4 -j 21 -N 12 "$1")
    sum=$(od -An -tu2 -v -j 53 -N $((0x$bins * 2)) "$1" | tr -s ' ' '\n' | awk '{ s += $1 } END { print s }')
    [ "$sum" = "$n" ] || fail "profile: $sum samples in $1's histogram, OpenOCD took $n"
    [ $((0x$low)) -ge $((text_lo)) ] && [ $((0x$high)) -le $((text_hi)) ] ||
        fail "profile: samples 0x$low-0x$high outside the code [$text_lo, $text_hi)"
    echo "profile: $n samples in 0x$low-0x$high"
}
ocd -c "profile 1 $work/pcsr.gmon" || { cat "$log" >&2; fail "profile failed"; }
cp "$log" "$work/profile_pcsr.log"
expect_in "$log" "Sampling DWT_PCSR"
gmon_check "$work/pcsr.gmon" "$work/profile_pcsr.log"
start_fixture --no-pcsr
ocd -c "profile 1 $work/halt.gmon" || { cat "$log" >&2; fail "profile (halting) failed"; }
cp "$log" "$work/profile_halt.log"
expect_in "$log" "PCSR sampling not supported"
gmon_check "$work/halt.gmon" "$work/profile_halt.log"
echo "$test_name: all checks passed"
