#!/usr/bin/env bash
# record_openocd.sh ELF WORK - `mcuprof record --reset` through the real
# OpenOCD 0.12 and its cortex_m target, over JTAG to the dap_fixture (a
# Cortex-M debug interface on pull_idle.c running under QEMU,
# tests/openocd/lib.sh): through its Tcl port (--openocd) and its GDB
# server (--gdb, the server's `monitor reset halt`):
#   the core reset, the firmware runs again from its reset vector (it
#   prints its ready line once more) and record pulls its run: exit 0, the
#   summary names the link, the arcs exactly the firmware's dump's
#   (generation 0: a fresh run, not a drained one), the core running on.
# Tools from the environment: MCUPROF, ARCS_EQUAL, OPENOCD, OPENOCD_CFG (a
# cortex_m target), DAP_FIXTURE; and jq.
set -euo pipefail
elf=$1
record_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$record_dir/../openocd/lib.sh"
test_name=record.openocd
. "$record_dir/lib.sh"
: "${ARCS_EQUAL:?}"
start_target "$elf" "$2"

record() { # NAME LINK ENDPOINT: record --reset through it
    local name=$1 n rc=0
    n=$(readies)
    "$MCUPROF" record "$elf" "--$2" "$3" --reset --duration 2 --timeout "$to" --image "$work/$name.img" \
        -o "$work/$name.gmon" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
    [ "$rc" = 0 ] || { cat "$work/$name.err" >&2; fail "$name: exit $rc"; }
    wait_restart "$n" "$name: record --reset"
    summary_fields "$work/$name.err"
    [ "$WHERE" = "$2 $3" ] || fail "$name: where '$WHERE'"
    [ "$ENDED" = "pulled after --duration" ] || fail "$name: ended '$ENDED'"
    "$ARCS_EQUAL" "$work/mcuprof.img" "$work/$name.img" || fail "$name: arcs differ from the firmware's dump"
    [ "$(val "$work/$name.img" generation)" = 0 ] || fail "$name: generation $(val "$work/$name.img" generation)"
    expect_left_running "$name: record --reset"
    echo "ok   $name: reset, run again, $SAMPLES samples, $ARCS arcs exactly the dump's; the core runs on"
}

start_ocd_server
image_addr=$(info_json "$work/mcuprof.img" .header.image_addr)
record tcl openocd "127.0.0.1:$tcl_port"
stop_ocd_server
start_ocd_gdb_server
record gdb gdb "127.0.0.1:$gdb_port"
echo "$test_name: all checks passed"
