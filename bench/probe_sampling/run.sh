#!/usr/bin/env bash
# bench/probe_sampling/run.sh [BOARD [SAMPLES]] - PC sampling through the
# probe against the firmware's own truth, side by side, on the test set-up:
# the real OpenOCD 0.12's cortex_m target over JTAG (remote_bitbang) to
# the dap_fixture's Cortex-M (tests/openocd/fixture/), the firmware
# probe_split.elf under QEMU (thread_work 50 %, masked_work 20 % with
# interrupts masked, an interrupt at SysTick's own priority 30 %, by the
# board's clock). One table of each function's share:
#   - OpenOCD's own `profile` (DWT_PCSR), its gmon.out read by gprof;
#   - `mcuprof sample --method pcsr` and `--method halt` through OpenOCD's
#     Tcl port, SAMPLES samples each, read by gprof;
#   - the firmware's own SysTick histogram (`mcuprof pull` at the end,
#     everything since reset, its sampler at 10 Hz), read by gprof;
# with the samples, the rate and the cost to the target of each.
# Wall-clock on this host (the load average is printed): a measure of the
# test set-up, not of a probe. Uses the test build in
# ${MCUPROF_BUILD_DIR:-build}.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
board=${1:-mps2-an385}
samples=${2:-400}
gprof=${GPROF:-arm-none-eabi-gprof}
test_name=probe_sampling
# shellcheck source=../lib/fixture.sh
. "$root/bench/lib/fixture.sh"
elf=$build/tests/e2e/fw-$board/probe_split.elf
bench_need "$elf"
MCUPROF_QEMU_TIMEOUT=1200 # the bench takes minutes on a loaded host
bench_start "$build/probe-sampling-bench" "probe_split: ready"
start_ocd_server
echo "$board, load average at the start $(cut -d' ' -f1-3 /proc/loadavg)"

# A share of gprof's flat profile (0 when gprof lists no time for it).
share() { # FLAT FUNC
    awk -v f="$2" '$NF == f && $1 ~ /^[0-9.]+$/ { print $1; found = 1 } END { if (!found) print "0.00" }' "$1"
}
declare -A col cost
cols=()
add_col() { # NAME GMON COST
    "$gprof" -b -p "$elf" "$2" >"$work/$1.flat"
    cols+=("$1")
    cost[$1]=$3
}
ocd_tcl() { # TCL: one command on the Tcl port, its result
    python3 - "$tcl_port" "$1" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(sys.argv[2].encode() + b"\x1a")
b = b""
while not b.endswith(b"\x1a"):
    b += s.recv(65536)
print(b[:-1].decode())
PY
}

# OpenOCD's profile: as long as mcuprof's pcsr run took, at least 2 s.
run_sample() { # NAME ARGS...
    local name=$1
    shift
    "$MCUPROF" sample --openocd "127.0.0.1:$tcl_port" --elf "$elf" --timeout 30 --samples "$samples" \
        --duration 600 -o "$work/$name.gmon" "$@" 2>"$work/$name.err" || { cat "$work/$name.err" >&2; exit 1; }
    summary=$(grep '^mcuprof: sample: [0-9]* samples' "$work/$name.err")
    echo "$summary"
}
# --batch 1: the fixture stops the core for every burst of JTAG traffic,
# so reads back to back would see one PC (a board's DWT stops nothing)
run_sample pcsr --method pcsr --batch 1
pcsr_s=$(sed -n 's/.* samples in \([0-9.]*\) s, .*/\1/p' <<<"$summary")
add_col "mcuprof-pcsr" "$work/pcsr.gmon" "$(sed -n 's/.* s, \([0-9]*\/s\), method pcsr.*/\1, core never stopped/p' <<<"$summary")"
run_sample halt --method halt
add_col "mcuprof-halt" "$work/halt.gmon" "$(sed -n 's/.* s, \([0-9]*\/s\), method halt (asked for; the core stopped within each exchange of \([0-9]*\) us.*/\1, core stopped <= \2 us a sample/p' <<<"$summary")"

secs=$(awk -v s="$pcsr_s" 'BEGIN { s = int(s + 0.5); print s < 2 ? 2 : s }')
ocd_tcl "profile $secs $work/openocd.gmon" >"$work/openocd_profile.txt" 2>&1 || true
per_s=$(od -An -tu4 -j 33 -N 4 "$work/openocd.gmon" | tr -d ' ')
add_col "openocd-profile" "$work/openocd.gmon" "${per_s}/s over ${secs} s, core never stopped (DWT_PCSR)"

"$MCUPROF" pull --openocd "127.0.0.1:$tcl_port" --elf "$elf" --timeout 30 -o "$work/systick.gmon" -i "$work/systick.img" \
    2>"$work/pull.err" || { cat "$work/pull.err" >&2; exit 1; }
taken=$("$MCUPROF" info --json "$work/systick.img" | jq .counters.samples_taken)
add_col "systick-10Hz" "$work/systick.gmon" "$taken samples since reset, in the firmware"

echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
printf '\n| function | truth |'
for c in "${cols[@]}"; do printf ' %s |' "$c"; done
printf '\n|---|---|'
for c in "${cols[@]}"; do printf -- '---|'; done
printf '\n'
for f in thread_work:50.00 masked_work:20.00 board_swi_handler:30.00; do
    printf '| %s | %s |' "${f%%:*}" "${f#*:}"
    for c in "${cols[@]}"; do printf ' %s |' "$(share "$work/$c.flat" "${f%%:*}")"; done
    printf '\n'
done
printf '| rest | 0.00 |'
for c in "${cols[@]}"; do
    printf ' %s |' "$(awk '$1 ~ /^[0-9.]+$/ && $NF != "thread_work" && $NF != "masked_work" && $NF != "board_swi_handler" { s += $1 } END { printf "%.2f", s }' "$work/$c.flat")"
done
printf '\n| rate, cost | |'
for c in "${cols[@]}"; do printf ' %s |' "${cost[$c]}"; done
printf '\n'
