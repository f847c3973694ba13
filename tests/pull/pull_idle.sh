#!/usr/bin/env bash
# pull_idle.sh ELF WORKDIR - `mcuprof pull` through QEMU's gdbstub from a
# core that runs: the firmware (pull_idle.c) did known work, wrote its
# image through semihosting and idles with the sampler on. Every pull (the
# freeze handshake, --halt) must hold exactly the arcs of that dump, and the
# core must run on after each pull.
# Tools from the environment: MCUPROF, ARCS_EQUAL.
set -euo pipefail
test_name=pull_idle
elf=$1
work=$2
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
: "${MCUPROF:?}" "${ARCS_EQUAL:?}"

rm -rf "$work"
mkdir -p "$work"
start_qemu mps2-an385 "$elf" "$work" "pull_idle: ready"
[ -s "$work/mcuprof.img" ] || fail "no semihosting dump"
gdb=127.0.0.1:$qemu_port

"$MCUPROF" pull --gdb "$gdb" --elf "$elf" --image "$work/frozen.img" 2>"$work/err.txt" || fail "pull (freeze) failed"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/frozen.img" || fail "frozen pull differs from the dump"
# one line says the file written, its size in bytes
[ "$(cat "$work/err.txt")" = "$(wrote_raw_line "$work/frozen.img")" ] || fail "pull --image said '$(cat "$work/err.txt")'"

"$MCUPROF" pull --gdb "$gdb" --elf "$elf" --halt --image "$work/halted.img" || fail "pull --halt failed"
"$ARCS_EQUAL" "$work/mcuprof.img" "$work/halted.img" || fail "halted pull differs from the dump"

# By address alone (the size from the header), straight to gmon.out (and
# the image it was written from): one line each, the samples, arcs and
# losses those of the image.
addr=$(info_json "$work/mcuprof.img" .header.image_addr)
"$MCUPROF" pull --gdb "$gdb" --address "$addr" -o "$work/gmon.out" --image "$work/addr.img" 2>"$work/err.txt" ||
    fail "pull --address failed"
[ "$(cat "$work/err.txt")" = "$(wrote_raw_line "$work/addr.img")
$(wrote_line "$work/gmon.out" "$work/addr.img")" ] || fail "pull -o said '$(cat "$work/err.txt")'"
# -q: nothing
"$MCUPROF" pull --gdb "$gdb" --address "$addr" -o "$work/gmon.q" -q 2>"$work/err.txt" || fail "pull -q failed"
[ ! -s "$work/err.txt" ] || fail "pull -q said '$(cat "$work/err.txt")'"
"$MCUPROF" convert "$work/mcuprof.img" -o "$work/gmon.dump"
calls() { info_json "$1" .counters.total_calls; }
[ "$(calls "$work/gmon.out")" = "$(calls "$work/gmon.dump")" ] ||
    fail "gmon.out calls $(calls "$work/gmon.out"), dump $(calls "$work/gmon.dump")"

# The core ran between the pulls: the sampler kept counting.
taken() { info_json "$1" .counters.samples_taken; }
[ "$(taken "$work/halted.img")" -gt "$(taken "$work/frozen.img")" ] || fail "the core did not run on"
# ... and it was released: nothing is frozen any more.
"$MCUPROF" pull --gdb "$gdb" --elf "$elf" --halt --image "$work/after.img"
[ "$(info_json "$work/after.img" .header.freeze_request)" = 0 ] || fail "freeze_request not released"
echo "pull_idle: all checks passed"
