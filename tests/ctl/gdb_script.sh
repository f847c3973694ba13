#!/usr/bin/env bash
# gdb_script.sh ELF WORKDIR - the profile control commands of
# hosttools/gdb/mcuprof.gdb in the real gdb-multiarch (-batch) against
# ctl_loop.c under QEMU: mcuprof-stop and mcuprof-stop-halted hold the
# arcs, samples and losses still while the firmware goes on for rounds;
# mcuprof-start and mcuprof-start-halted make them grow; mcuprof-reset and
# mcuprof-reset-halted zero the tables and increment generation;
# mcuprof-status says what the image says; another host's freeze is
# refused, and taken over with $mcuprof_force. Images are pulled with
# `mcuprof pull --halt` between the GDB runs.
# Tools from the environment: MCUPROF, ARCS_EQUAL, GDB.
set -euo pipefail
test_name=ctl.gdb_script
elf=$1
work=$2
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
: "${ARCS_EQUAL:?}" "${GDB:?}"
script=$here/../../hosttools/gdb/mcuprof.gdb

rm -rf "$work"
mkdir -p "$work"
cd "$work"
start_qemu mps2-an385 "$elf" "$work" "ctl_loop: running"
gdb=127.0.0.1:$qemu_port
g() { # NAME COMMANDS...: one gdb -batch run, its output in NAME.log; the core runs on after it
    local name=$1 a=()
    shift
    for c in "$@"; do a+=(-ex "$c"); done
    timeout 30 "$GDB" -nx -batch -ex "file $elf" -ex "target remote $gdb" -ex "source $script" "${a[@]}" \
        -ex detach >"$name.log" 2>&1 || { cat "$name.log" >&2; fail "gdb ($name) failed"; }
}
pull() { "$MCUPROF" pull --gdb "$gdb" --elf "$elf" --halt --image "$1.img" || fail "pull $1"; }
stood_still() { # A B
    "$ARCS_EQUAL" "$1" "$2" >/dev/null || fail "$(basename "$2"): the arcs changed after stop"
    [ "$(losses "$1")" = "$(losses "$2")" ] || fail "$(basename "$2"): samples or losses changed after stop"
}
grows() { # A B: three whole rounds more
    [ "$(calls "$2")" -ge $(($(calls "$1") + 12000)) ] || fail "$(basename "$2"): calls $(calls "$1") -> $(calls "$2")"
    [ "$(info_val "$2" state)" = 0x3 ] || fail "$(basename "$2"): state $(info_val "$2" state)"
}
zeroed() { # IMG GENERATION
    [ "$(info_val "$1" arcs_used)" = 0 ] && [ "$(info_val "$1" samples_taken)" = 0 ] && [ "$(calls "$1")" = 0 ] &&
        [ "$(info_val "$1" generation)" = "$2" ] || fail "$(basename "$1"): not zeroed to generation $2"
    [ "$(bins "$1")" = 0 ] || fail "$(basename "$1"): bins left"
}

for v in "" -halted; do
    g stop$v mcuprof-stop$v
    grep -q '^stopped, [0-9]* samples, [0-9]* arcs$' "stop$v.log" || { cat "stop$v.log"; fail "mcuprof-stop$v"; }
    pull a$v
    wait_rounds $(($(rounds) + 3))
    pull b$v
    stood_still a$v.img b$v.img
    g status$v mcuprof-status
    same_status "status$v.log" b$v.img
    grep -q "^stopped, $(info_val b$v.img samples_taken) samples, $(info_val b$v.img arcs_used) arcs$" "status$v.log" ||
        { cat "status$v.log"; fail "status line"; }
    g start$v mcuprof-start$v
    grep -q '^running, ' "start$v.log" || { cat "start$v.log"; fail "mcuprof-start$v"; }
    wait_rounds $(($(rounds) + 3))
    pull c$v
    grows b$v.img c$v.img
    echo "ok   mcuprof-stop$v / mcuprof-start$v: held $(calls b$v.img) calls over 3 rounds, then $(calls c$v.img)"
done

gen=$(info_val c-halted.img generation)
# (each reset finds calls to zero: the firmware ran with profiling on)
g reset mcuprof-stop mcuprof-reset
pull r1
zeroed r1.img $((gen + 1))
g start-again mcuprof-start-halted
wait_rounds $(($(rounds) + 2))
g reset-halted mcuprof-stop-halted mcuprof-reset-halted
pull r2
zeroed r2.img $((gen + 2))
echo "ok   mcuprof-reset, mcuprof-reset-halted: generation $gen -> $((gen + 2))"

# another host's freeze: freeze_request 77, which the firmware acknowledges
g frozen mcuprof-start "set {unsigned int}((char *)&__mcuprof_start + 188) = 77" \
    mcuprof-stop 'echo after-refusal\n'
grep -q '^mcuprof: error: the image is frozen by another host (freeze_request 0x4d, freeze_ack 0x[0-9a-f]*): .*\$mcuprof_force = 1 to take it over$' frozen.log ||
    { cat frozen.log; fail "frozen: no refusal"; }
grep -q '^stopped' frozen.log && { cat frozen.log; fail "frozen: stopped anyway"; }
"$MCUPROF" ctl status --gdb "$gdb" --elf "$elf" >st.txt
grep -q '^running (frozen), ' st.txt && grep -q '^  freeze_request  *77$' st.txt || { cat st.txt; fail "frozen: state"; }
g force 'set $mcuprof_force = 1' mcuprof-stop
grep -q 'mcuprof: warning: took over the freeze of another host (freeze_request 0x4d)' force.log &&
    grep -q '^stopped, ' force.log || { cat force.log; fail "force"; }
"$MCUPROF" ctl status --gdb "$gdb" --elf "$elf" >st.txt
grep -q '^stopped, ' st.txt && grep -q '^  freeze_request  *0$' st.txt && grep -q '^  freeze_ack  *0$' st.txt ||
    { cat st.txt; fail "force: not released"; }
echo "ok   frozen by another host: refused, then taken over"
echo "$test_name: all checks passed"
