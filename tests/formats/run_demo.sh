#!/usr/bin/env bash
# run_demo.sh BOARD ELF WORKDIR - run the demo firmware once under QEMU
# (deterministic -icount) and leave its image in WORKDIR/mcuprof.img, for
# the format tests that share it.
set -euo pipefail
board=$1 elf=$2 work=$3
run=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/ci/qemu/run.sh
rm -rf "$work"
mkdir -p "$work"
"$run" "$board" "$elf" --workdir "$work" --timeout 120 >"$work/uart.log" 2>"$work/stderr.log" || {
    cat "$work/uart.log" "$work/stderr.log" >&2
    echo "run_demo: $board: the demo failed (console above)" >&2
    exit 1
}
[ -s "$work/mcuprof.img" ] || { echo "run_demo: $board: no mcuprof.img written" >&2; exit 1; }
