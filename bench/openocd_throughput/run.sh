#!/usr/bin/env bash
# bench/openocd_throughput/run.sh [ELF] - how fast a profile image comes
# through the real OpenOCD 0.12 over JTAG (remote_bitbang to the dap_fixture
# fixture, tests/openocd/fixture/, serving the memory of firmware under QEMU): the
# OpenOCD script's mcuprof_dump and `mcuprof pull --openocd` through the Tcl
# port. Wall-clock KB/s of the read alone (OpenOCD's start-up and the
# connection are outside the timed part for the script, inside for the
# pull), on this host: a measure of the test set-up, not of a probe.
#
# ELF: pull_idle firmware with some image (default: pull_bench.elf from the
# test build, a 264 KB image; pull_idle.elf is 4.7 KB). Uses the test build
# in ${MCUPROF_BUILD_DIR:-build} (ci/test.sh or cmake --build first).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${MCUPROF_BUILD_DIR:-$root/build}
elf=${1:-$build/tests/e2e/fw-mps2-an385/pull_bench.elf}
export MCUPROF=$build/hosttools/mcuprof DAP_FIXTURE=$build/tests/openocd/dap_fixture
export OPENOCD=${OPENOCD:-openocd} OPENOCD_CFG=$root/tests/openocd/fixture/openocd-jtag-memap.cfg
[ -x "$DAP_FIXTURE" ] && [ -f "$elf" ] || { echo "build the tests first (bash ci/test.sh)" >&2; exit 2; }
test_name=openocd_throughput
# shellcheck source=../../tests/openocd/lib.sh
. "$root/tests/openocd/lib.sh"
start_target "$elf" "$build/openocd-bench"
addr=$("$MCUPROF" info "$work/mcuprof.img" | awk '$1 == "image" && $2 == "address" { print $3 }')
size=$(stat -c %s "$work/mcuprof.img")

ocd -c "source $root/hosttools/openocd/mcuprof.tcl" \
    -c "set t0 [clock milliseconds]; mcuprof_dump $work/script.img $addr; echo \"MS [expr {[clock milliseconds] - \$t0}]\""
ms=$(awk '$1 == "MS" { print $2 }' "$work/openocd.log")
echo "mcuprof_dump (OpenOCD script): $size bytes in $ms ms: $((size * 1000 / 1024 / (ms > 0 ? ms : 1))) KB/s"

start_ocd_server
t0=$(date +%s%N)
"$MCUPROF" pull --openocd "127.0.0.1:$tcl_port" --address "$addr" --image "$work/pull.img"
ms=$((($(date +%s%N) - t0) / 1000000))
echo "mcuprof pull --openocd: $size bytes in $ms ms: $((size * 1000 / 1024 / (ms > 0 ? ms : 1))) KB/s"
