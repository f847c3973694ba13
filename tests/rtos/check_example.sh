#!/usr/bin/env bash
# check_example.sh BOARD ELF EXPECT_FILE WORKDIR - examples/freertos as
# built by its own CMake project: `mcuprof check` finds no error, the run
# under QEMU gives the exact arcs of EXPECT_FILE through the real gprof
# (tests/e2e/check_firmware.sh), a task table with every task, and call
# paths of the tasks created while the scheduler runs that start at their
# task function and are not flagged cut.
# Tools come from the environment: MCUPROF, GPROF, GPROF_CHECK; and jq.
set -euo pipefail

board=$1
elf=$2
expect=$3
work=$4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

fail() {
    echo "check_example: $board: $*" >&2
    exit 1
}

"$MCUPROF" check "$elf" || fail "mcuprof check finds an error in the example"
bash "$here/../e2e/check_firmware.sh" "$board" "$elf" "$work" "$expect"

jq -r '.tasks.entries[].name' "$work/info.json" | sort >"$work/tasks.txt"
for t in IDLE control crc sensor sum; do
    grep -qx "$t" "$work/tasks.txt" || fail "no task table entry for $t"
done
"$MCUPROF" convert "$work/mcuprof.img" --elf "$elf" --format folded -o "$work/paths.folded"
cat "$work/paths.folded"
# crc, sum and sensor: whole paths from their task function
bad=$(grep -E '(task_crc|task_sum|task_sensor|crc_block|sum_block|checksum|filter)' "$work/paths.folded" |
    grep -vE '^(task_crc|task_sum|task_sensor)(;| )' || true)
[ -z "$bad" ] || fail "paths of the workers that are cut or lack their task function: $bad"
for f in task_crc task_sum task_sensor; do
    grep -q "^$f;" "$work/paths.folded" || fail "no path starts at $f"
done
echo "check_example: $board: all checks passed"
