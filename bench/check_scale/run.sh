#!/usr/bin/env bash
# run.sh BUILD_DIR MCUPROF - `mcuprof check` on a large firmware and on a
# crafted one, written as a section of bench/RESULTS.md on stdout.
#
# The ELFs come from tests/check/gen_elf.c (written byte by byte, no cross
# toolchain): `firmware 100000`, 100,000 profiled Cortex-M functions of 96
# bytes (push {lr}; bl __gnu_mcount_nc; a loop of 12 calls of other
# functions), 9.6 MB of code; and `overlap 20000`, 20,000 units of 10
# bytes (push {lr}; bl __gnu_mcount_nc; b.w to the next unit), each named
# by a function symbol that runs from it to the end of the code.
# Deterministic: callgrind's instruction count (Ir). *wall*: best of five
# runs on this host; peak memory: GNU time's maximum resident set.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:?run.sh BUILD_DIR MCUPROF}
mcuprof=${2:?run.sh BUILD_DIR MCUPROF}
cc=${CC:-cc}
mkdir -p "$build"
"$cc" -std=c11 -O2 -Wall -Wextra -Werror "$root/tests/check/gen_elf.c" -o "$build/check_gen_elf"
"$build/check_gen_elf" firmware 100000 "$build/check_firmware.elf"
"$build/check_gen_elf" overlap 20000 "$build/check_overlap.elf"

# row NAME ELF: one line of the table
row() {
    local name=$1 elf=$2 cg=$build/callgrind.check.out ir best= dt t0 t1 mem=n/a last
    valgrind --tool=callgrind --callgrind-out-file="$cg" "$mcuprof" check "$elf" >"$build/check.out" 2>&1 || true
    ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$cg")
    for _ in 1 2 3 4 5; do
        t0=$(date +%s%N)
        "$mcuprof" check "$elf" >"$build/check.out" 2>&1 || true
        t1=$(date +%s%N)
        dt=$((t1 - t0))
        if [ -z "$best" ] || [ "$dt" -lt "$best" ]; then best=$dt; fi
    done
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%M' -o "$build/mem.txt" "$mcuprof" check "$elf" >/dev/null 2>&1 || true
        mem="$(($(tail -1 "$build/mem.txt") / 1024)) MB"
    fi
    last=$(tail -1 "$build/check.out" | sed "s|$build/||")
    awk -v n="$name" -v bytes="$(stat -c %s "$elf")" -v ir="$ir" -v ns="$best" -v mem="$mem" -v last="$last" 'BEGIN {
        printf "| %s | %d | %.1f M | %.3f s (wall) | %s | `%s` |\n", n, bytes, ir / 1e6, ns / 1e9, mem, last }'
}

cat <<'EOF'
### check on a large firmware

`mcuprof check`, which `mcuprof_instrument()` runs after every link, on
ELFs written by `tests/check/gen_elf.c` (`bash bench/check_scale/run.sh
BUILD_DIR MCUPROF`, run by `bench/run.sh`): *firmware*, `gen_elf firmware
100000`: 100,000 profiled Cortex-M functions of 96 bytes (`push {lr}; bl
__gnu_mcount_nc`, then a loop of 12 calls of other functions), 9.6 MB of
code; *overlapping*, `gen_elf overlap 20000`: 20,000 units of 10 bytes
(`push {lr}; bl __gnu_mcount_nc; b.w` to the next unit), unit I named by
a function symbol that runs from it to the end of the code. Instructions:
callgrind's count (Ir), deterministic; *wall*: best of five runs on this
host; peak memory: the maximum resident set (GNU time).

| ELF | bytes | instructions | time | peak memory | last line |
|---|---|---|---|---|---|
EOF
row firmware "$build/check_firmware.elf" | tee "$build/check_row.txt"
row overlapping "$build/check_overlap.elf"
awk -F'|' '{ t = $5 + 0; printf "\nGoal: `check` on a 10 MB firmware of 100,000 functions in under a second: %.3f s (wall), **%s**.\n", t, t < 1 ? "met" : "missed" }' "$build/check_row.txt"
cat <<'EOF'

Before (the same host, wall, with other builds running on it): each
branch's target was looked up in every symbol, so the firmware took 31.3
s; and each function symbol's whole range was decoded, so overlapping
symbols decoded shared code once per symbol: `gen_elf overlap 3000` (100
KB) took 21.8 s and 144 MB for 4,498,500 findings (one per symbol holding
each branch), `gen_elf overlap 6000` (199 KB) 106 s and 566 MB for
17,997,000. Now each byte of code is decoded once, by the function that
starts last among those holding it, and only branches to another
function's entry are kept ([check](../docs/commands.md#check) in
docs/commands.md gives the bounds).
EOF
