#!/usr/bin/env bash
# gdb_script.sh ELF WORKDIR - hosttools/gdb/mcuprof.gdb in the real
# gdb-multiarch (-batch) against QEMU: mcuprof-dump (freeze handshake) and
# mcuprof-dump-halted must give the arcs of the firmware's semihosting dump.
# Tools from the environment: MCUPROF, ARCS_EQUAL, GDB.
set -euo pipefail
test_name=gdb_script
elf=$1
work=$2
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
: "${MCUPROF:?}" "${ARCS_EQUAL:?}" "${GDB:?}"
script=$here/../../hosttools/gdb/mcuprof.gdb

rm -rf "$work"
mkdir -p "$work"
start_qemu mps2-an385 "$elf" "$work" "pull_idle: ready"

for cmd in mcuprof-dump mcuprof-dump-halted; do
    timeout 20 "$GDB" -nx -batch -ex "file $elf" -ex "target remote 127.0.0.1:$qemu_port" \
        -ex "source $script" -ex "$cmd $work/$cmd.img" -ex detach >"$work/$cmd.log" 2>&1 ||
        { cat "$work/$cmd.log" >&2; fail "$cmd failed in gdb"; }
    "$ARCS_EQUAL" "$work/mcuprof.img" "$work/$cmd.img" || fail "$cmd: arcs differ from the dump"
    "$MCUPROF" convert "$work/$cmd.img" -o "$work/$cmd.gmon" || fail "$cmd: image does not convert"
done
[ "$(info_json "$work/mcuprof-dump.img" '.header.state_flags | index("frozen") != null')" = true ] ||
    fail "mcuprof-dump did not freeze"
echo "gdb_script: all checks passed"
