# shellcheck shell=bash disable=SC2034 # sets variables for the benches that source it
# bench/lib/fixture.sh - the test set-up of tests/openocd/ for a bench: the
# dap_fixture on firmware under QEMU and the real OpenOCD, from the test
# build in ${MCUPROF_BUILD_DIR:-build}, with OpenOCD's cortex_m target.
# Sourced with root (the repository) and test_name set: sets build and the
# tools' environment, and sources tests/openocd/lib.sh.
#   bench_need ELF             exit 2, saying so, unless the test build has
#                              the fixture and ELF
#   bench_start WORKDIR READY  a fresh WORKDIR (work), the firmware $elf
#                              under QEMU on $board until its console says
#                              READY, and a dap_fixture on its gdbstub

build=${MCUPROF_BUILD_DIR:-$root/build}
export MCUPROF=$build/hosttools/mcuprof DAP_FIXTURE=$build/tests/openocd/dap_fixture
export OPENOCD=${OPENOCD:-openocd} OPENOCD_CFG=$root/tests/openocd/fixture/openocd-jtag-cortexm.cfg
# shellcheck source=../../tests/openocd/lib.sh
. "$root/tests/openocd/lib.sh"

bench_need() { # ELF
    [ -x "$DAP_FIXTURE" ] && [ -f "$1" ] || { echo "build the tests first (bash ci/test.sh)" >&2; exit 2; }
}

bench_start() { # WORKDIR READY
    work=$1
    rm -rf "$work"
    mkdir -p "$work"
    start_qemu "$board" "$elf" "$work" "$2"
    start_fixture
}
