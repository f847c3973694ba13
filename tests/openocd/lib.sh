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
#   start_ocd_gdb_server [-c CMD ...]  the same with OpenOCD's GDB server on
#                               a port of its own too (extra commands before
#                               init); sets tcl_port and gdb_port
#   ocd_tcl COMMAND             COMMAND through the Tcl port; its result on stdout
#   core_state                  the core as OpenOCD sees it: running, halted ...
#   image_word OFFSET           the 32-bit word at OFFSET of the image (at
#                               $image_addr), read through the Tcl port
#   expect_left_running WHAT    the core runs (its samples_taken goes on) and
#                               nobody holds a freeze (freeze_request and
#                               freeze_ack 0): how every command must leave it
#   expect_core_running WHAT    the same but for samples_taken (a profile
#                               that was stopped)
#   expect_left_halted WHAT     the core halted, the same freeze words 0
#   val IMG KEY                 a header field or counter of IMG (mcuprof info --json)
#   not_frozen IMG WHAT         IMG was taken without a freeze
#   readies                     how often pull_idle printed its ready line
#   wait_restart N WHAT         until it printed it more than N times
#   $to                         --timeout for mcuprof: generous, tests run in parallel
# OCD_BOARD names the board the firmware is built for (default mps2-an385).
# Tools from the environment: OPENOCD, OPENOCD_CFG, DAP_FIXTURE, MCUPROF;
# DAP_FIXTURE_OPTS, options for every fixture started (--buspirate: the
# same test over SWD, with OPENOCD_CFG an SWD configuration).

# shellcheck source=../pull/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../pull/lib.sh"
# QEMU's own limit (ci/qemu/run.sh --timeout), and its boot's: longer than
# the tests here take on a loaded machine.
MCUPROF_QEMU_TIMEOUT=${MCUPROF_QEMU_TIMEOUT:-150}
MCUPROF_QEMU_READY_TIMEOUT=${MCUPROF_QEMU_READY_TIMEOUT:-40}
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
    start_qemu "${OCD_BOARD:-mps2-an385}" "$elf" "$work" "pull_idle: ready"
    [ -s "$work/mcuprof.img" ] || fail "no semihosting dump"
    start_fixture "$@"
}

ocd() {
    timeout 60 "$OPENOCD" -c "set DAP_FIXTURE_PORT $jtag_port" -f "$OPENOCD_CFG" -c init "$@" \
        -c shutdown >"$work/openocd.log" 2>&1
}

# OpenOCD in the background on the fixture, its ports set by the -c
# SETTINGS, EXTRA after its configuration; waits until its Tcl port
# $tcl_port answers. A port that looked free may still be taken when
# OpenOCD binds it: by a test running in parallel, or by a connection of an
# earlier one in TIME_WAIT (the probe cannot see those): then 1, and the
# caller tries other ports.
launch_ocd_server() { # SETTINGS [EXTRA...]
    local n=0 settings=$1
    shift
    "$OPENOCD" -c "set DAP_FIXTURE_PORT $jtag_port; $settings" -f "$OPENOCD_CFG" "$@" \
        >"$work/openocd_server.log" 2>&1 &
    ocd_pid=$!
    until (exec 3<>"/dev/tcp/127.0.0.1/$tcl_port") 2>/dev/null; do
        if ! kill -0 "$ocd_pid" 2>/dev/null; then
            grep -q "couldn't bind" "$work/openocd_server.log" && return 1
            cat "$work/openocd_server.log" >&2
            fail "openocd did not start"
        fi
        n=$((n + 1))
        [ "$n" -lt 250 ] || fail "openocd's Tcl port $tcl_port never opened"
        sleep 0.02
    done
}

start_ocd_server() {
    local attempt
    for attempt in 1 2 3 4 5; do
        tcl_port=$(free_port) || fail "no free TCP port"
        launch_ocd_server "set TCL_PORT $tcl_port" && return 0
    done
    cat "$work/openocd_server.log" >&2
    fail "openocd could not bind a Tcl port in 5 attempts"
}

# Fail with the log shown unless FILE holds the fixed string TEXT.
expect_in() { # FILE TEXT
    grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$(basename "$1") lacks: $2"; }
}

# Like start_ocd_server, with OpenOCD's GDB server on a second free port
# (never 3333: tests run in parallel). EXTRA: -c commands run before init.
start_ocd_gdb_server() { # [-c CMD ...]
    local n attempt
    for attempt in 1 2 3 4 5; do
        tcl_port=$(free_port) || fail "no free TCP port"
        gdb_port=$(free_port) || fail "no free TCP port"
        [ "$gdb_port" != "$tcl_port" ] || continue
        launch_ocd_server "set TCL_PORT $tcl_port; set GDB_PORT $gdb_port" "$@" || continue
        # The GDB port opens at init too: its log line says so (a probe
        # connection would attach, and halt the core).
        n=0
        until grep -q "Listening on port $gdb_port for gdb connections" "$work/openocd_server.log"; do
            n=$((n + 1))
            [ "$n" -lt 250 ] || { cat "$work/openocd_server.log" >&2; fail "openocd's GDB server is not on port $gdb_port"; }
            sleep 0.02
        done
        return 0
    done
    cat "$work/openocd_server.log" >&2
    fail "openocd could not bind its ports in 5 attempts"
}

# OpenOCD's Tcl RPC: the command, then 0x1a; the result, then 0x1a.
ocd_tcl() { # COMMAND
    local fd reply
    exec {fd}<>"/dev/tcp/127.0.0.1/$tcl_port" || fail "cannot reach OpenOCD's Tcl port $tcl_port"
    printf '%s\x1a' "$1" >&"$fd"
    IFS= read -r -d $'\x1a' -t 20 reply <&"$fd" || { exec {fd}>&-; fail "no answer from OpenOCD to: $1"; }
    exec {fd}>&-
    printf '%s\n' "$reply"
}

core_state() { ocd_tcl "[target current] curstate"; }

image_word() { # OFFSET
    local w
    w=$(ocd_tcl "read_memory $((image_addr + $1)) 32 1")
    [[ "$w" =~ ^0x[0-9a-f]+$ ]] || fail "OpenOCD cannot read the image's word at +$1: $w"
    printf '%d\n' "$w"
}

# freeze_request (188) and freeze_ack (192) both 0.
expect_unfrozen() { # WHAT
    local req ack
    req=$(image_word 188)
    ack=$(image_word 192)
    [ "$req" = 0 ] && [ "$ack" = 0 ] || fail "$1: left frozen (freeze_request $req, freeze_ack $ack)"
}

# The core runs as OpenOCD sees it, nobody holds a freeze (the profile
# itself may be stopped).
expect_core_running() { # WHAT
    local state
    state=$(core_state)
    [ "$state" = running ] || fail "$1: the core is left $state"
    expect_unfrozen "$1"
}

expect_left_running() { # WHAT
    local s0 s1 n
    expect_core_running "$1"
    # samples_taken (224) goes on: the core runs and the sampler with it
    s0=$(image_word 224)
    for n in $(seq 100); do
        s1=$(image_word 224)
        [ "$s1" = "$s0" ] || return 0
        sleep 0.02
    done
    fail "$1: samples_taken stays at $s0: the core does not run"
}

expect_left_halted() { # WHAT
    local state s0
    state=$(core_state)
    [ "$state" = halted ] || fail "$1: the core is left $state, not halted"
    expect_unfrozen "$1"
    s0=$(image_word 224)
    sleep 0.1
    [ "$(image_word 224)" = "$s0" ] || fail "$1: samples_taken moves on a halted core"
}

val() { info_json "$1" ".header.$2 // .counters.$2"; }
not_frozen() { # IMG WHAT
    [ "$(info_json "$1" '.header.state_flags | index("frozen") != null')" = false ] || fail "$2: the image was frozen"
}
# Every answer of a loaded machine running tests in parallel.
to=30
readies() { grep -c "pull_idle: ready" "$work/uart.log" || true; }
wait_restart() { # N WHAT
    local i
    for i in $(seq 200); do [ "$(readies)" -gt "$1" ] && return 0; sleep 0.05; done
    fail "$2: the firmware did not start over"
}
