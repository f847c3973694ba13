#!/usr/bin/env bash
# gdb_script.sh ELF WORKDIR - hosttools/gdb/mcuprof.gdb in the real
# gdb-multiarch (-batch) against QEMU: mcuprof-dump (freeze handshake) and
# mcuprof-dump-halted must give the arcs of the firmware's semihosting dump;
# mcuprof-dump refuses another host's freeze unless $mcuprof_force, which
# takes it over and releases it.
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

# another host's freeze: freeze_request 77, which the firmware acknowledges
g() { # NAME COMMANDS...: one gdb -batch run, its output in NAME.log
    local name=$1 a=()
    shift
    for c in "$@"; do a+=(-ex "$c"); done
    timeout 20 "$GDB" -nx -batch -ex "file $elf" -ex "target remote 127.0.0.1:$qemu_port" -ex "source $script" \
        "${a[@]}" -ex 'printf "freeze_request %u\n", *(unsigned int *)((char *)&__mcuprof_start + 188)' \
        -ex detach >"$work/$name.log" 2>&1 || { cat "$work/$name.log" >&2; fail "gdb ($name) failed"; }
}
g frozen "set {unsigned int}((char *)&__mcuprof_start + 188) = 77" "mcuprof-dump $work/frozen.img"
grep -q '^mcuprof: error: the image is frozen by another host (freeze_request 0x4d, freeze_ack 0x[0-9a-f]*): .*\$mcuprof_force = 1 to take it over$' "$work/frozen.log" &&
    grep -q '^freeze_request 77$' "$work/frozen.log" || { cat "$work/frozen.log"; fail "frozen: not refused"; }
[ ! -e "$work/frozen.img" ] || fail "frozen: dumped anyway"
g force 'set $mcuprof_force = 1' "mcuprof-dump $work/force.img"
grep -q '^mcuprof: warning: took over the freeze of another host (freeze_request 0x4d)' "$work/force.log" &&
    grep -q '^freeze_request 0$' "$work/force.log" || { cat "$work/force.log"; fail "force: not taken over and released"; }
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/force.img" || fail "force: arcs differ from the dump"
echo "ok   frozen by another host: refused, then taken over"
echo "gdb_script: all checks passed"
