#!/usr/bin/env bash
# run.sh [BUILD_DIR] - what mcuprof_instrument()'s -fno-ipa-cp -fno-ipa-sra
# -fno-partial-inlining -fno-reorder-blocks-and-partition cost, against
# KEEP_CLONES, on the Cortex-M3 (mps2-an385) and RV32 (riscv32-virt): the
# .text of each firmware, the code of its profiled C functions (the
# symbols of its own objects, padding excluded), and the time of its
# profiled run as the samples the 10 kHz sampler took (one per 3,125
# instructions at the boards' -icount clock: the run's length to 0.01 %).
# Needs the host tool built: MCUPROF (default build/hosttools/mcuprof); jq.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$here/../..
build=${1:-/tmp/mcuprof-clone-flags}
mcuprof=${MCUPROF:-$root/build/hosttools/mcuprof}
[ -x "$mcuprof" ] || { echo "run.sh: no host tool at $mcuprof (set MCUPROF)" >&2; exit 1; }
printf '%-12s %-6s %-3s %-5s %8s %8s %9s  %s\n' board fw opt clones text funcs samples clones-made
for board in mps2-an385 riscv32-virt; do
    case $board in mps2-*) tc=arm-none-eabi ;; *) tc=riscv64-unknown-elf ;; esac
    b=$build/$board
    cmake -S "$here" -B "$b" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-$tc.cmake" -DMCUPROF_BOARD=$board \
        -DCMAKE_BUILD_TYPE=Release --no-warn-unused-cli >/dev/null
    cmake --build "$b" -j 2 >/dev/null
    for fw in demo clones; do
        for opt in O2 Os; do
            for v in off kept; do
                elf=$b/${fw}_${opt}_$v.elf
                text=$($tc-size -A "$elf" | awk '$1 == ".text" { print $2 }')
                # the firmware's own functions: those defined in its objects
                objs=$(find "$b/CMakeFiles/${fw}_${opt}_$v.elf.dir" -name '*.c.obj' ! -path '*board*' ! -path '*boards*')
                funcs=0
                for sz in $($tc-nm -S --defined-only $objs 2>/dev/null | awk 'NF == 4 && $3 ~ /^[tTwW]$/ { print $2 }'); do
                    funcs=$((funcs + 16#$sz))
                done
                made=$($tc-nm "$elf" | awk '$2 ~ /^[tT]$/ && $3 ~ /\.(constprop|isra|part|cold)/ { print $3 }' | tr '\n' ' ')
                w=$b/run-${fw}_${opt}_$v
                mkdir -p "$w"
                "$root/ci/qemu/run.sh" $board "$elf" --workdir "$w" --timeout 120 >/dev/null 2>&1
                samples=$("$mcuprof" info --json "$w/mcuprof.img" | jq .counters.samples_taken)
                printf '%-12s %-6s %-3s %-5s %8s %8s %9s  %s\n' $board $fw $opt $v "$text" "$funcs" "$samples" "${made:--}"
            done
        done
    done
done
