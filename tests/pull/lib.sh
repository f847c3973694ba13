# lib.sh - shared by the pull tests (sourced): run firmware under QEMU with
# its gdbstub on a free port, and make sure QEMU never outlives the test.
#   start_qemu BOARD ELF WORKDIR PATTERN   sets qemu_port; waits for PATTERN
#                                          on the console (WORKDIR/uart.log)
# Tools from the environment: MCUPROF (and others per test).

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run_sh=$here/../../ci/qemu/run.sh
runner_pid=

fail() {
    echo "${test_name:-pull}: FAIL: $*" >&2
    exit 1
}

stop_qemu() {
    if [ -n "$runner_pid" ]; then
        # run.sh kills QEMU from its own EXIT/TERM trap.
        kill -TERM "$runner_pid" 2>/dev/null || true
        wait "$runner_pid" 2>/dev/null || true
        runner_pid=
    fi
}
trap stop_qemu EXIT
trap 'stop_qemu; exit 130' INT TERM

# A port nobody listens on. Probing QEMU's own gdbstub would attach to it
# (and stop the core), so ports are only probed before QEMU starts.
free_port() {
    local p tries
    for tries in 1 2 3 4 5 6 7 8 9 10; do
        p=$((20000 + (RANDOM * 7 + $$ + tries) % 30000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

wait_console() { # FILE PATTERN SECONDS
    local deadline=$((SECONDS + $3))
    while [ "$SECONDS" -lt "$deadline" ]; do
        grep -q "$2" "$1" 2>/dev/null && return 0
        [ -n "$runner_pid" ] && ! kill -0 "$runner_pid" 2>/dev/null && return 1
        sleep 0.05
    done
    return 1
}

start_qemu() { # BOARD ELF WORKDIR PATTERN
    local attempt
    for attempt in 1 2 3; do
        qemu_port=$(free_port) || fail "no free TCP port"
        : >"$3/uart.log"
        "$run_sh" "$1" "$2" --workdir "$3" --timeout 60 \
            -- -gdb "tcp:127.0.0.1:$qemu_port" >"$3/uart.log" 2>&1 &
        runner_pid=$!
        wait_console "$3/uart.log" "$4" 15 && return 0
        stop_qemu
        # the port may have been taken between the probe and QEMU's bind
        grep -q "gdbstub" "$3/uart.log" || { cat "$3/uart.log" >&2; fail "firmware never printed '$4'"; }
    done
    fail "QEMU could not open its gdbstub"
}
