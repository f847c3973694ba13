#!/usr/bin/env bash
# bench/pull_throughput/run.sh [ROUNDS] - how fast `mcuprof pull` reads a
# profile image through QEMU's gdbstub, against gdb-multiarch dumping the
# same bytes (`dump binary memory`) from the same QEMU in the same run.
#
# The firmware is tests/e2e/firmware/pull_idle.c with a 256 KB arc table
# (pull_bench.elf, mps2-an385). Each tool runs ROUNDS times (default 5),
# connecting, reading and disconnecting each time; the best round counts.
# Both figures include connecting; mcuprof's also its freeze handshake
# (and, in the --halt line, none). Wall-clock: depends on the host.
# Builds go to ${MCUPROF_BUILD_DIR:-build}/pull-bench. Not part of the tests.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${MCUPROF_BUILD_DIR:-$root/build}/pull-bench
rounds=${1:-5}
gdb=${GDB:-gdb-multiarch}

cmake -S "$root" -B "$build/host" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build/host" --target mcuprof -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
cmake -S "$root/tests/e2e/firmware" -B "$build/fw" -DMCUPROF_BOARD=mps2-an385 \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-arm-none-eabi.cmake" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build/fw" --target pull_bench.elf >/dev/null
mcuprof=$build/host/hosttools/mcuprof
elf=$build/fw/pull_bench.elf

work=$build/run
rm -rf "$work"
mkdir -p "$work"
# shellcheck source=../../tests/pull/lib.sh
. "$root/tests/pull/lib.sh"
start_qemu mps2-an385 "$elf" "$work" "pull_idle: ready"
target=127.0.0.1:$qemu_port

now_ns() { date +%s%N; }
best=
measure() { # best wall time in ns of "$@" over ROUNDS runs
    local i t0 t1 d
    best=
    for i in $(seq "$rounds"); do
        t0=$(now_ns)
        "$@" >/dev/null 2>&1
        t1=$(now_ns)
        d=$((t1 - t0))
        if [ -z "$best" ] || [ "$d" -lt "$best" ]; then best=$d; fi
    done
}
rate() { # BYTES NS -> KB/s
    awk -v b="$1" -v ns="$2" 'BEGIN { printf "%.0f", b / 1024 / (ns / 1e9) }'
}

measure "$mcuprof" pull --gdb "$target" --elf "$elf" --image "$work/ours.img"
ours=$best
size=$(stat -c %s "$work/ours.img")
measure "$mcuprof" pull --gdb "$target" --elf "$elf" --halt --image "$work/ours-halt.img"
ours_halt=$best
measure "$gdb" -nx -batch -ex "file $elf" -ex "target remote $target" \
    -ex "dump binary memory $work/gdb.img (char*)&__mcuprof_start (char*)&__mcuprof_start+$size" -ex detach
theirs=$best
[ "$(stat -c %s "$work/gdb.img")" = "$size" ] || { echo "gdb dumped a different size" >&2; exit 1; }

echo "pull_throughput: $size bytes through QEMU's gdbstub, best of $rounds"
printf '  %-44s %8.1f ms  %6s KB/s\n' "mcuprof pull (freeze handshake)" "$(awk -v n="$ours" 'BEGIN{print n/1e6}')" "$(rate "$size" "$ours")"
printf '  %-44s %8.1f ms  %6s KB/s\n' "mcuprof pull --halt" "$(awk -v n="$ours_halt" 'BEGIN{print n/1e6}')" "$(rate "$size" "$ours_halt")"
printf '  %-44s %8.1f ms  %6s KB/s\n' "gdb-multiarch -batch dump binary memory" "$(awk -v n="$theirs" 'BEGIN{print n/1e6}')" "$(rate "$size" "$theirs")"
