#!/usr/bin/env bash
# openocd_script.sh WORKDIR - hosttools/openocd/mcuprof.tcl in the real
# OpenOCD interpreter: it must load, and with the target commands stubbed
# (fixtures/openocd_stubs.tcl: no probe, no board here) its procedures must
# do the freeze handshake around dump_image, give up cleanly when the
# firmware never answers, refuse memory without an image, and refuse
# another host's freeze unless mcuprof_force, which takes it over.
# Tools from the environment: OPENOCD.
set -euo pipefail
test_name=openocd_script
work=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
script=$here/../../hosttools/openocd/mcuprof.tcl
: "${OPENOCD:?}"
fail() { echo "$test_name: FAIL: $*" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"

timeout 20 "$OPENOCD" -c 'adapter driver dummy' -c "source $here/fixtures/openocd_stubs.tcl" \
    -c "source $script" \
    -c "mcuprof_dump $work/a.img 0x20000010" -c 'echo "LOG1 $stub_log"; set stub_log {}' \
    -c "mcuprof_dump_symbols $work/b.img 0x20000010 0x20001470" -c 'echo "LOG2 $stub_log"; set stub_log {}' \
    -c "set mcuprof_address 0x20000010; mcuprof_dump $work/c.img" -c 'echo "LOG3 $stub_log"; set stub_log {}' \
    -c 'set stub_ticks 0; set mcuprof_timeout_ms 50' \
    -c "if {[catch {mcuprof_dump $work/d.img 0x20000010} m]} {echo \"ERR4 \$m\"}" -c 'echo "LOG4 $stub_log"' \
    -c "if {[catch {mcuprof_dump $work/e.img 0x20000020} m]} {echo \"ERR5 \$m\"}" \
    -c 'set stub_state halted; set stub_log {}' \
    -c "mcuprof_dump $work/f.img 0x20000010" -c 'echo "LOG6 $stub_log"' \
    -c 'set stub_state running; set stub_ticks 1; set stub_log {}; set stub_mem(0x200000cc) 77' \
    -c "if {[catch {mcuprof_dump $work/g.img 0x20000010} m]} {echo \"ERR7 \$m\"}" -c 'echo "LOG7 $stub_log"' \
    -c 'set mcuprof_force 1; set stub_log {}' \
    -c "mcuprof_dump $work/h.img 0x20000010" -c 'echo "LOG8 $stub_log"' \
    -c shutdown >"$work/openocd.log" 2>&1 || { cat "$work/openocd.log"; fail "openocd failed"; }

expect() { grep -qF -- "$1" "$work/openocd.log" || { cat "$work/openocd.log"; fail "missing: $1"; }; }
expect "LOG1 {mww 0x200000cc 1} {dump_image $work/a.img.part 0x20000010 5200} {mww 0x200000cc 0}"
expect "LOG2 {mww 0x200000cc 1} {dump_image $work/b.img.part 0x20000010 5216} {mww 0x200000cc 0}"
expect "LOG3 {mww 0x200000cc 1} {dump_image $work/c.img.part 0x20000010 5200} {mww 0x200000cc 0}"
expect "ERR4 mcuprof: the target did not acknowledge the freeze within 50 ms"
expect "LOG4 {mww 0x200000cc 1} {mww 0x200000cc 0}"
expect "ERR5 mcuprof: no profile image at 0x20000020"
expect "LOG6 {dump_image $work/f.img.part 0x20000010 5200}"
expect "ERR7 mcuprof: the image is frozen by another host (freeze_request 0x4d, freeze_ack 0x4d): a pull in progress, or one that ended without releasing it; set mcuprof_force 1 to take it over"
grep -qx "LOG7 " "$work/openocd.log" || { cat "$work/openocd.log"; fail "refused, yet written to the target"; }
expect "mcuprof: warning: took over the freeze of another host (freeze_request 0x4d)"
expect "LOG8 {mww 0x200000cc 78} {dump_image $work/h.img.part 0x20000010 5200} {mww 0x200000cc 0}"
echo "openocd_script: all checks passed"
