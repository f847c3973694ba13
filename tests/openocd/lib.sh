# lib.sh - shared by the OpenOCD tests (sourced): firmware under QEMU
# (tests/pull/lib.sh), the dap_fixture fixture on its gdbstub, and the real
# OpenOCD against the fixture. Nothing started here outlives the test.
#   start_target ELF WORKDIR [FIXTURE OPTIONS]  QEMU + fixture; sets jtag_port
#   start_fixture [OPTIONS]     another fixture on the same QEMU (the old one
#                               is stopped first); sets jtag_port
#   ocd ARGS...                 run openocd on the fixture (-c ... commands),
#                               log in $work/openocd.log; its exit status
#   start_ocd_server            openocd in the background with a Tcl port;
#                               sets tcl_port
#   stop_ocd_server
#   $mcuprof_tcl                hosttools/openocd/mcuprof.tcl, the script under test
# Tools from the environment: OPENOCD, OPENOCD_CFG, DAP_FIXTURE, MCUPROF;
# DAP_FIXTURE_OPTS, options for every fixture started (--buspirate: the
# same test over SWD, with OPENOCD_CFG an SWD configuration).

# shellcheck source=../pull/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../pull/lib.sh"
: "${OPENOCD:?}" "${OPENOCD_CFG:?}" "${DAP_FIXTURE:?}" "${MCUPROF:?}"

fixture_pid=
ocd_pid=
mcuprof_tcl=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../hosttools/openocd" && pwd)/mcuprof.tcl

stop_fixture() {
    if [ -n "$fixture_pid" ]; then
        kill -TERM "$fixture_pid" 2>/dev/null || true
        wait "$fixture_pid" 2>/dev/null || true
        fixture_pid=
    fi
}

stop_ocd_server() {
    if [ -n "$ocd_pid" ]; then
        kill -TERM "$ocd_pid" 2>/dev/null || true
        wait "$ocd_pid" 2>/dev/null || true
        ocd_pid=
    fi
}

stop_all() {
    stop_ocd_server
    stop_fixture
    stop_qemu
}
trap stop_all EXIT
trap 'stop_all; exit 130' INT TERM

start_fixture() { # [OPTIONS]
    local n=0
    stop_fixture
    rm -f "$work/jtag.port"
    # shellcheck disable=SC2086 # DAP_FIXTURE_OPTS: options for every fixture (--buspirate)
    "$DAP_FIXTURE" --gdb "127.0.0.1:$qemu_port" --port-file "$work/jtag.port" ${DAP_FIXTURE_OPTS:-} "$@" \
        >>"$work/dap_fixture.log" 2>&1 &
    fixture_pid=$!
    while [ ! -s "$work/jtag.port" ]; do
        kill -0 "$fixture_pid" 2>/dev/null || { cat "$work/dap_fixture.log" >&2; fail "dap_fixture did not start"; }
        n=$((n + 1))
        [ "$n" -lt 200 ] || fail "dap_fixture did not write its port"
        sleep 0.02
    done
    jtag_port=$(cat "$work/jtag.port")
}

start_target() { # ELF WORKDIR [FIXTURE OPTIONS]
    local elf=$1
    work=$2
    shift 2
    rm -rf "$work"
    mkdir -p "$work"
    start_qemu mps2-an385 "$elf" "$work" "pull_idle: ready"
    [ -s "$work/mcuprof.img" ] || fail "no semihosting dump"
    start_fixture "$@"
}

ocd() {
    timeout 60 "$OPENOCD" -c "set DAP_FIXTURE_PORT $jtag_port" -f "$OPENOCD_CFG" -c init "$@" \
        -c shutdown >"$work/openocd.log" 2>&1
}

# A port that looked free may still be taken when OpenOCD binds it: by a
# test running in parallel, or by a connection of an earlier one in
# TIME_WAIT (the probe cannot see those). Then another port is tried.
start_ocd_server() {
    local n attempt
    for attempt in 1 2 3 4 5; do
        tcl_port=$(free_port) || fail "no free TCP port"
        "$OPENOCD" -c "set DAP_FIXTURE_PORT $jtag_port; set TCL_PORT $tcl_port" -f "$OPENOCD_CFG" \
            >"$work/openocd_server.log" 2>&1 &
        ocd_pid=$!
        n=0
        until (exec 3<>"/dev/tcp/127.0.0.1/$tcl_port") 2>/dev/null; do
            if ! kill -0 "$ocd_pid" 2>/dev/null; then
                grep -q "couldn't bind" "$work/openocd_server.log" && continue 2
                cat "$work/openocd_server.log" >&2
                fail "openocd did not start"
            fi
            n=$((n + 1))
            [ "$n" -lt 250 ] || fail "openocd's Tcl port $tcl_port never opened"
            sleep 0.02
        done
        return 0
    done
    cat "$work/openocd_server.log" >&2
    fail "openocd could not bind a Tcl port in 5 attempts"
}

# Fail with the log shown unless FILE holds the fixed string TEXT.
expect_in() { # FILE TEXT
    grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$(basename "$1") lacks: $2"; }
}
