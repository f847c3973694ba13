#!/usr/bin/env bash
# pull.sh ELF WORKDIR - `mcuprof pull --openocd` through the real OpenOCD's
# Tcl RPC port, over JTAG to the dap_fixture fixture, while the firmware runs
# under QEMU: the frozen pull holds exactly the arcs of the semihosting
# dump, straight to gmon.out too; the core runs on and is released.
# Tools from the environment: MCUPROF, ARCS_EQUAL, OPENOCD, OPENOCD_CFG, DAP_FIXTURE.
set -euo pipefail
test_name=openocd.jtag.pull
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
: "${ARCS_EQUAL:?}"
elf=$1
start_target "$elf" "$2"
start_ocd_server
ocd_ep=127.0.0.1:$tcl_port

"$MCUPROF" pull --openocd "$ocd_ep" --elf "$elf" --image "$work/frozen.img" ||
    fail "pull --openocd failed"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/frozen.img" || fail "frozen pull differs from the dump"

addr=$(info_json "$work/mcuprof.img" .header.image_addr)
"$MCUPROF" pull --openocd "$ocd_ep" --address "$addr" -o "$work/gmon.out" ||
    fail "pull --openocd --address failed"
"$MCUPROF" convert "$work/mcuprof.img" -o "$work/gmon.dump"
calls() { info_json "$1" .counters.total_calls; }
[ "$(calls "$work/gmon.out")" = "$(calls "$work/gmon.dump")" ] ||
    fail "gmon.out calls $(calls "$work/gmon.out"), dump $(calls "$work/gmon.dump")"

# A mem_ap target's "halt" stops nothing: this reads the live header, which
# must show the freeze released and the sampler still counting.
"$MCUPROF" pull --openocd "$ocd_ep" --elf "$elf" --halt --image "$work/after.img" ||
    fail "pull --openocd --halt failed"
taken() { info_json "$1" .counters.samples_taken; }
[ "$(taken "$work/after.img")" -gt "$(taken "$work/frozen.img")" ] || fail "the core did not run on"
[ "$(info_json "$work/after.img" .header.freeze_request)" = 0 ] || fail "freeze_request not released"
echo "$test_name: all checks passed"
