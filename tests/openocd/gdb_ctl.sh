#!/usr/bin/env bash
# gdb_ctl.sh ELF WORKDIR - `mcuprof ctl --gdb` and hosttools/gdb/mcuprof.gdb
# in gdb-multiarch, both through the GDB server of the real OpenOCD 0.12
# with a cortex_m target, over JTAG to the dap_fixture (a Cortex-M debug
# interface on pull_idle.c running under QEMU):
#   ctl stop, status, start, reset, release   the profile stops and starts,
#                                 the 585 calls of the run are zeroed
#   mcuprof-reset, mcuprof-status, mcuprof-dump   in gdb; mcuprof-dump waits
#                                 on freeze_ack with a hardware watchpoint
#                                 (the DWT's comparators, through OpenOCD)
# After every command the core runs and no freeze is held (checked through
# OpenOCD's Tcl port). OpenOCD leaves the core halted when gdb detaches:
# `monitor resume` first lets it run.
# OCD_BOARD: the firmware's board. Tools from the environment: MCUPROF,
# OPENOCD, OPENOCD_CFG (a cortex_m target), DAP_FIXTURE, GDB.
set -euo pipefail
test_name=openocd.gdb_ctl.${OCD_BOARD:-mps2-an385}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
# shellcheck source=cortexm_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/cortexm_lib.sh"
: "${GDB:?}"
gdb_script=$here/../../hosttools/gdb/mcuprof.gdb
start_cortexm_path gdb "$1" "$2"

# 1. mcuprof ctl --gdb
ctl() { # ACTION: its output in ctl_ACTION.txt
    "$MCUPROF" ctl "$1" --gdb "$ep" --elf "$elf" --timeout "$to" >"$work/ctl_$1.txt" 2>&1 ||
        { cat "$work/ctl_$1.txt" >&2; fail "ctl $1 --gdb failed"; }
    expect_core_running "ctl $1 --gdb"
}
ctl stop
grep -q '^stopped, ' "$work/ctl_stop.txt" || fail "ctl stop: $(cat "$work/ctl_stop.txt")"
s0=$(image_word 224)
sleep 0.3
[ "$(image_word 224)" = "$s0" ] || fail "ctl stop --gdb: samples_taken moves on ($s0 -> $(image_word 224))"
ctl status
grep -q '^stopped, ' "$work/ctl_status.txt" && grep -q '^  sampler  *answered a freeze in [0-9]* ms$' "$work/ctl_status.txt" ||
    { cat "$work/ctl_status.txt" >&2; fail "ctl status --gdb"; }
ctl start
grep -q '^running, ' "$work/ctl_start.txt" || fail "ctl start: $(cat "$work/ctl_start.txt")"
expect_left_running "ctl start --gdb"
ctl reset
grep -q '^zeroed [0-9]* samples and 11 arcs (585 calls); generation 0 -> 1$' "$work/ctl_reset.txt" ||
    { cat "$work/ctl_reset.txt" >&2; fail "ctl reset --gdb"; }
ctl release
grep -q '^no freeze to release' "$work/ctl_release.txt" || { cat "$work/ctl_release.txt" >&2; fail "ctl release --gdb"; }
echo "ok   mcuprof ctl --gdb: stop held samples_taken at $s0, status, start, reset, release"

# 2. the GDB script in gdb-multiarch connected to OpenOCD. OpenOCD keeps
# the core halted when gdb detaches: `monitor resume` lets it run.
g script "source $gdb_script" "mcuprof-reset" "mcuprof-status" "mcuprof-dump $work/script.img" \
    'printf "freeze_request %u freeze_ack %u\n", *(unsigned int *)((char *)&__mcuprof_start + 188), *(unsigned int *)((char *)&__mcuprof_start + 192)' \
    "monitor resume" detach
grep -q "atchpoint [0-9]*: \*(unsigned int \*)((char \*)&__mcuprof_start + 192)" "$work/script.log" ||
    { cat "$work/script.log" >&2; fail "mcuprof-dump: no hardware watchpoint on freeze_ack"; }
grep -q '^Hardware watchpoint' "$work/script.log" || { cat "$work/script.log" >&2; fail "mcuprof-dump: the watchpoint is not a hardware one"; }
grep -q '^mcuprof: profile image written (frozen snapshot)$' "$work/script.log" &&
    grep -q '^freeze_request 0 freeze_ack 0$' "$work/script.log" || { cat "$work/script.log" >&2; fail "mcuprof-dump"; }
[ "$(val "$work/script.img" generation)" = 2 ] && [ "$(val "$work/script.img" arcs_used)" = 0 ] ||
    fail "mcuprof-reset then mcuprof-dump: generation $(val "$work/script.img" generation), $(val "$work/script.img" arcs_used) arcs"
grep -q '^running, [0-9]* samples, 0 arcs$' "$work/script.log" || { cat "$work/script.log" >&2; fail "mcuprof-status"; }
expect_left_running "the GDB script, then monitor resume and detach"
echo "ok   mcuprof.gdb in gdb-multiarch on OpenOCD: mcuprof-reset, mcuprof-status, mcuprof-dump (hardware watchpoint)"

# 3. without `monitor resume`, OpenOCD keeps the core halted after detach
# (it has no gdb-detach action of its own); its `resume` lets it run
g detach_only "source $gdb_script" "mcuprof-status" detach
expect_left_halted "mcuprof-status, then detach"
ocd_tcl resume >/dev/null
expect_left_running "resume after gdb detached"
echo "ok   gdb detach leaves the core halted; OpenOCD's resume lets it run"
echo "$test_name: all checks passed"
