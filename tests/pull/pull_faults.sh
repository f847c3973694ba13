#!/usr/bin/env bash
# pull_faults.sh WORKDIR - `mcuprof pull` when things go wrong: nothing
# listening, a connection dropped in the middle of a read, E01 replies,
# garbage, a silent server, bad checksums, an ELF without the image
# symbols, memory without an image, the ELF of another machine. Each must give one
# error line naming the server (or file), exit 1, and write no output; a
# server gone while the target is frozen, a second line saying so.
# Also the good paths through the fake servers (run-length encoded replies,
# binary writes, drain) and --openocd against a fake Tcl RPC server.
# Tools from the environment: MCUPROF, FAKE_GDB, FAKE_OPENOCD, MAKE_IMAGE,
# ARCS_EQUAL.
set -euo pipefail
test_name=pull_faults
work=$1
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
fake_workdir "$work" 0102030405060708090a0b0c0d0e0f1011121314
head -c 8192 /dev/zero >zeros.img

# nothing listening
p=$(free_port)
expect_error refused "127.0.0.1:$p: cannot connect" -- pull --gdb "127.0.0.1:$p" --address $addr

for mode in drop e01 garbage badsum; do
    start_fake "$FAKE_GDB" port "$mode" image.img $addr
    case $mode in
    drop) pattern="127.0.0.1:$port: the server closed the connection" ;;
    e01) pattern="127.0.0.1:$port: error reply E01" ;;
    garbage) pattern="127.0.0.1:$port: garbage instead of a reply" ;;
    badsum) pattern="127.0.0.1:$port: the server rejected\|bad checksum" ;;
    esac
    # a server gone in the middle of the read leaves the target frozen
    frozen=$([ $mode = drop ] && echo 1 || true) expect_error "$mode" "$pattern" -- \
        pull --gdb "127.0.0.1:$port" --address $addr --timeout 0.5
done
start_fake "$FAKE_GDB" port silent image.img $addr
expect_error silent "127.0.0.1:$port: no answer within 300 ms" -- pull --gdb "127.0.0.1:$port" --address $addr --timeout 0.3

# an ELF without __mcuprof_start (a host program)
expect_error no-symbol "$ARCS_EQUAL: no symbols __mcuprof_start" -- pull --elf "$ARCS_EQUAL"
# memory without an image (firmware without mcuprof)
start_fake "$FAKE_GDB" port ok zeros.img $addr
expect_error no-image "127.0.0.1:$port: magic bytes 00 00 00 00" -- pull --gdb "127.0.0.1:$port" --address $addr
# the wrong ELF: the host program (another machine) for the ARM image
start_fake "$FAKE_GDB" port ok image.img $addr
expect_error wrong-elf "$ARCS_EQUAL: built for machine [0-9]* .*but the image is for 40 (ARM), 32-bit, little-endian: not this firmware's ELF" -- \
    pull --gdb "127.0.0.1:$port" --elf "$ARCS_EQUAL" --address $addr
expect_error convert-wrong-elf "$ARCS_EQUAL: built for machine [0-9]* .*not this firmware's ELF" -- \
    convert image.img --elf "$ARCS_EQUAL"

# The good paths. --force turns the mismatches (machine, build-id) into
# warnings.
start_fake "$FAKE_GDB" port ok image.img $addr
"$MCUPROF" pull --gdb "127.0.0.1:$port" --elf "$ARCS_EQUAL" --address $addr --force --image rle.img 2>warn.txt
stop_fake
grep -q "warning: .*does not match.*--force" warn.txt && grep -q "warning: .*built for machine.*--force" warn.txt ||
    fail "--force: no warning"
"$ARCS_EQUAL" image.img rle.img >/dev/null || fail "pull through the fake GDB server changed the arcs"
# drain through binary X writes: the second pull finds the tables empty
cp image.img drain.img
start_fake "$FAKE_GDB" port ok drain.img $addr
"$MCUPROF" pull --gdb "127.0.0.1:$port" --address $addr --reset --image drained.img
stop_fake
"$ARCS_EQUAL" image.img drained.img >/dev/null || fail "drain: the pulled image is not the original"

# --openocd: the Tcl RPC port, core running, memory read live, frozen and
# released (the fake writes its memory back to the file when done).
cp image.img ocd-live.img
start_fake "$FAKE_OPENOCD" port ocd-live.img $addr running
"$MCUPROF" pull --openocd "127.0.0.1:$port" --address $addr --image ocd.img -o ocd.gmon
wait "$fake_pid"; fake_pid=
"$ARCS_EQUAL" image.img ocd.img >/dev/null || fail "--openocd: arcs differ"
[ "$(info_json ocd.img .header.freeze_ack)" -gt 0 ] || fail "--openocd: not read frozen"
[ "$(info_json ocd-live.img .header.freeze_request)" = 0 ] || fail "--openocd: not released"
# --openocd --halt --reset on a halted core: tables drained, generation 1
cp image.img ocd-drain.img
start_fake "$FAKE_OPENOCD" port ocd-drain.img $addr halted
"$MCUPROF" pull --openocd "127.0.0.1:$port" --address $addr --halt --reset --image ocd2.img
wait "$fake_pid"; fake_pid=
"$ARCS_EQUAL" image.img ocd2.img >/dev/null || fail "--openocd --halt: arcs differ"
"$MCUPROF" info --json ocd-drain.img >drained.json
jq -e '.header.arcs_used == 0 and .counters.generation == 1 and .ranges[0].samples == 0' drained.json >/dev/null ||
    { cat drained.json; fail "--openocd --reset: not drained"; }
start_fake "$FAKE_OPENOCD" port image.img $addr running
expect_error openocd-no-image "127.0.0.1:$port: 'read_memory 0x30000000 8 256' failed" -- \
    pull --openocd "127.0.0.1:$port" --address 0x30000000
echo "pull_faults: all checks passed"
