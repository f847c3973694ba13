# lib.sh - shared by the pull tests (sourced): run firmware under QEMU with
# its gdbstub on a free port, and make sure QEMU never outlives the test.
#   start_qemu BOARD ELF WORKDIR PATTERN   sets qemu_port; waits for PATTERN
#                                          on the console (WORKDIR/uart.log);
#                                          QEMU stops after 60 s
#                                          (MCUPROF_QEMU_TIMEOUT, seconds);
#                                          PATTERN must come within 15 s
#                                          (MCUPROF_QEMU_READY_TIMEOUT)
#   info_json FILE FILTER                  jq FILTER (-r) on `mcuprof info
#                                          --json FILE`: how a test reads a
#                                          value of a profile (the text of
#                                          `mcuprof info` is for people)
#   wrote_line FILE PROFILE [FORMAT]       the line mcuprof prints once FILE
#                                          is written from PROFILE (an image
#                                          or gmon.out): its binned samples,
#                                          arcs and losses, read back with
#                                          info --json; FORMAT when named
#   wrote_raw_line FILE                    the same for a raw image FILE
#   wrote_line_losses FILE SAMPLES ARCS LOSSES [FORMAT], lost_words COUNTER N
#                                          the same from figures
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

info_json() { "$MCUPROF" info --json "$1" | jq -r "$2"; }

thousands() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }

# lost_words COUNTER N: N of a lost_* counter in the words of the line
# said of a file written (report's words), "" for 0
lost_words() {
    local unit what
    case $1 in
    lost_arcs_table_full) unit=call what="arc table full" ;;
    lost_calls_reentrant) unit=call what=reentrant ;;
    lost_calls_frozen) unit=call what=frozen ;;
    lost_samples_out_of_range) unit=sample what="outside every range" ;;
    lost_samples_saturated) unit=sample what="bins full" ;;
    lost_samples_frozen) unit=sample what=frozen ;;
    esac
    [ "$2" = 0 ] || echo "$(thousands "$2") $unit$([ "$2" = 1 ] || echo s) lost ($what)"
}

# wrote_line_losses FILE SAMPLES ARCS LOSSES [FORMAT]
wrote_line_losses() {
    echo "mcuprof: wrote $1${5:+ ($5)}: $(thousands "$2") sample$([ "$2" = 1 ] || echo s)," \
        "$(thousands "$3") arc$([ "$3" = 1 ] || echo s), ${4:-nothing lost}"
}

wrote_line() { # FILE PROFILE [FORMAT]
    local json losses="" c w
    json=$("$MCUPROF" info --json "$2")
    # the lost_* counters in the header's order
    for c in lost_arcs_table_full lost_calls_reentrant lost_calls_frozen lost_samples_out_of_range \
        lost_samples_saturated lost_samples_frozen; do
        w=$(lost_words $c "$(jq -r ".counters.lost.$c" <<<"$json")")
        [ -z "$w" ] || losses="${losses:+$losses, }$w"
    done
    wrote_line_losses "$1" "$(jq -r .counters.binned <<<"$json")" "$(jq -r '.arcs | length' <<<"$json")" \
        "$losses" "${3:-}"
}

wrote_raw_line() { # FILE
    local n
    n=$(stat -c %s "$1")
    echo "mcuprof: wrote $1 (raw image, $(thousands "$n") byte$([ "$n" = 1 ] || echo s))"
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
        "$run_sh" "$1" "$2" --workdir "$3" --timeout "${MCUPROF_QEMU_TIMEOUT:-60}" \
            -- -gdb "tcp:127.0.0.1:$qemu_port" >"$3/uart.log" 2>&1 &
        runner_pid=$!
        wait_console "$3/uart.log" "$4" "${MCUPROF_QEMU_READY_TIMEOUT:-15}" && return 0
        stop_qemu
        # the port may have been taken between the probe and QEMU's bind
        # (QEMU 7.2: "-gdb tcp:...: Failed to find an available port:
        # Address already in use"; older ones name the gdbstub)
        grep -qE "gdbstub|Failed to find an available port|Address already in use" "$3/uart.log" ||
            { cat "$3/uart.log" >&2; fail "firmware never printed '$4'"; }
    done
    fail "QEMU could not open its gdbstub"
}

# Fake debug servers (fixtures/): one client each, the port in ./port.
#   fake_workdir WORKDIR [BUILD_ID_HEX]   cd to a fresh WORKDIR holding
#                                 image.img, made for address $addr
#   start_fake PROGRAM ARGS...    sets fake_pid and port
#   stop_fake                     waits for it to end, stops it after 1 s
#   expect_error NAME PATTERN -- mcuprof ARGS
#       exit 1, one stderr line matching PATTERN, no output file (-o
#       $out_file, default out.gmon, is added); with max_ms set, done
#       within that many milliseconds; with frozen set, a second line says
#       that the target is left frozen and how to release it (the server
#       went away, or never stops the core again, while it was frozen)
fake_workdir() { # WORKDIR [BUILD_ID_HEX]: a fresh WORKDIR with image.img at $addr
    : "${MCUPROF:?}" "${FAKE_GDB:?}" "${FAKE_OPENOCD:?}" "${MAKE_IMAGE:?}" "${ARCS_EQUAL:?}"
    rm -rf "$1"
    mkdir -p "$1"
    cd "$1"
    addr=0x20000010
    "$MAKE_IMAGE" image.img $addr "${@:2}"
}

fake_pid=
# A fake whose client has gone exits by itself after writing its memory
# back: give it a second before stopping it.
stop_fake() {
    [ -n "$fake_pid" ] || return 0
    local i
    for i in $(seq 50); do kill -0 "$fake_pid" 2>/dev/null || break; sleep 0.02; done
    kill "$fake_pid" 2>/dev/null || true
    wait "$fake_pid" 2>/dev/null || true
    fake_pid=
}
trap 'stop_fake; stop_qemu' EXIT

start_fake() { # PROGRAM ARGS...
    rm -f port
    "$@" &
    fake_pid=$!
    local i
    for i in $(seq 100); do [ -s port ] && break; sleep 0.02; done
    [ -s port ] || fail "fake server did not start"
    port=$(cat port)
}

expect_error() {
    local name=$1 pattern=$2 rc=0 out=${out_file:-out.gmon} t0 ms
    shift 3
    rm -f out.gmon out.img
    t0=$(date +%s%N)
    "$MCUPROF" "$@" -o "$out" 2>err.txt >/dev/null || rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    stop_fake
    [ "$rc" = 1 ] || { cat err.txt; fail "$name: exit $rc, expected 1"; }
    if [ -n "${frozen:-}" ]; then
        [ "$(wc -l <err.txt)" = 2 ] || { cat err.txt; fail "$name: not two error lines"; }
        tail -1 err.txt | grep -q "^mcuprof: error: [^ ]*: the target \(is\|may be\) left frozen: freeze_request at 0x[0-9a-f]* holds 0x[0-9a-f]\{8\} (this pull's request; .*); release it with: mcuprof ctl release --[a-z]* [^ ]* --address 0x[0-9a-f]*$" ||
            { cat err.txt; fail "$name: no line on the frozen target"; }
    else
        [ "$(wc -l <err.txt)" = 1 ] || { cat err.txt; fail "$name: not one error line"; }
    fi
    grep -q "^mcuprof: error: .*$pattern" err.txt || { cat err.txt; fail "$name: message"; }
    ls "$out".* out.gmon* out.img* >/dev/null 2>&1 && fail "$name: output file left behind"
    [ -z "${max_ms:-}" ] || [ "$ms" -le "$max_ms" ] || fail "$name: took $ms ms, more than $max_ms"
    echo "ok   $name (${ms} ms): $(cat err.txt)"
}
