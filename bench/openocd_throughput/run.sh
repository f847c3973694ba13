#!/usr/bin/env bash
# bench/openocd_throughput/run.sh [ELF] - how fast a profile image comes
# through the real OpenOCD 0.12 to the dap_fixture (tests/openocd/fixture/,
# serving the memory of firmware under QEMU), over JTAG (remote_bitbang on
# a socket) and over SWD (buspirate on a pseudo-terminal, `dap_fixture
# --buspirate`): the OpenOCD script's mcuprof_dump and `mcuprof pull
# --openocd` through the Tcl port, with OpenOCD's defaults (`dap
# memaccess` 255 idle clocks after each AP access) on both wires.
# Wall-clock KB/s of the read alone (OpenOCD's start-up and the connection
# are outside the timed part for the script, inside for the pull), on this
# host: a measure of the test set-up, not of a probe. Prints a Markdown
# table, one row per wire.
#
# ELF: pull_idle firmware with some image (default: pull_bench.elf from the
# test build, a 264 KB image; pull_idle.elf is 4.7 KB). Uses the test build
# in ${MCUPROF_BUILD_DIR:-build} (ci/test.sh or cmake --build first).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
test_name=openocd_throughput
# SWD through the buspirate driver reads a 264 KB image in minutes: QEMU
# must outlive the tests' 60 s.
export MCUPROF_QEMU_TIMEOUT=1200
# shellcheck source=../lib/fixture.sh
. "$root/bench/lib/fixture.sh"
elf=${1:-$build/tests/e2e/fw-mps2-an385/pull_bench.elf}
cfgs=$root/tests/openocd/fixture
OPENOCD_CFG=$cfgs/openocd-jtag-memap.cfg
bench_need "$elf"
start_target "$elf" "$build/openocd-bench"
addr=$("$MCUPROF" info "$work/mcuprof.img" | awk '$1 == "image" && $2 == "address" { print $3 }')
size=$(stat -c %s "$work/mcuprof.img")
kbs() { awk -v b="$1" -v ms="$2" 'BEGIN { printf "%.1f", b * 1000 / 1024 / (ms > 0 ? ms : 1) }'; } # BYTES MS

# measure WIRE CFG [FIXTURE OPTIONS]: one table row
measure() {
    local wire=$1 ms pull_ms t0
    OPENOCD_CFG=$2
    shift 2
    start_fixture "$@"
    ocd -c "source $root/hosttools/openocd/mcuprof.tcl" \
        -c "set t0 [clock milliseconds]; mcuprof_dump $work/script.img $addr; echo \"MS [expr {[clock milliseconds] - \$t0}]\"" ||
        { cat "$work/openocd.log" >&2; fail "$wire: mcuprof_dump failed"; }
    ms=$(awk '$1 == "MS" { print $2 }' "$work/openocd.log")
    start_ocd_server
    t0=$(date +%s%N)
    "$MCUPROF" pull --openocd "127.0.0.1:$tcl_port" --address "$addr" --timeout 600 --image "$work/pull.img" ||
        fail "$wire: pull failed"
    pull_ms=$((($(date +%s%N) - t0) / 1000000))
    stop_ocd_server
    echo "| $wire | $size | $(kbs "$size" "$ms") KB/s ($ms ms) | $(kbs "$size" "$pull_ms") KB/s ($pull_ms ms) |"
}

echo "| wire (OpenOCD adapter driver) | image bytes | mcuprof_dump (OpenOCD script) | mcuprof pull --openocd |"
echo "|---|---|---|---|"
measure "JTAG (remote_bitbang, TCP socket)" "$cfgs/openocd-jtag-memap.cfg"
measure "SWD (buspirate, pseudo-terminal)" "$cfgs/openocd-swd-memap.cfg" --buspirate
