#!/usr/bin/env bash
# top_openocd.sh BOARD FWDIR WORKDIR - `mcuprof top --openocd` through the
# real OpenOCD's Tcl port, over JTAG to the dap_fixture (tests/openocd: a
# Cortex-M debug interface on firmware running under QEMU), on
# top_split_plain.elf (lib.sh says what it does): two intervals in the
# batch form, top_hot at its part of the round within 3 standard errors
# and a point (the code between the spins), the four
# work functions called once a round (within one), top_leaf ten times
# as often, no inclusive figures (no call paths); and the core left
# running with no freeze held (the image's own words, read through
# OpenOCD).
# Tools from the environment: MCUPROF, OPENOCD, OPENOCD_CFG (a cortex_m
# target), DAP_FIXTURE.
set -euo pipefail
test_name=top.openocd
board=$1
fw=$2
work=$3
elf=$fw/top_split_plain.elf
OCD_BOARD=$board
# shellcheck source=../openocd/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../openocd/lib.sh"
rm -rf "$work"
mkdir -p "$work"
start_qemu "$board" "$elf" "$work" "top_split: ready"
start_fixture
start_ocd_server
image_addr=$(nm "$elf" | awk '$3 == "__mcuprof_start" { print "0x" $1 }')
[ -n "$image_addr" ] || fail "no __mcuprof_start in $elf"

"$MCUPROF" top --openocd "127.0.0.1:$tcl_port" --elf "$elf" --batch --count 2 --interval 1 --timeout "$to" \
    >"$work/out.txt" 2>"$work/err.txt" || { cat "$work/err.txt"; fail "top --openocd failed"; }
cat "$work/out.txt"
[ ! -s "$work/err.txt" ] || { cat "$work/err.txt"; fail "top wrote to stderr"; }
[ "$(grep -c '^interval [12] time .* run_intervals [12] run_samples [0-9]* sort self$' "$work/out.txt")" = 2 ] ||
    fail "not two intervals"
awk '
/^interval / { if (n) judge(); n++; delete c; next }
NF == 13 && $1 ~ /^[0-9.]+$/ {
    c[$13] = $8
    if ($13 == "top_hot") { hot = $1; lo = $2; hi = $3 }
    if ($10 != "-" || $11 != "-" || $12 != "-") { print "an inclusive figure without call paths"; bad = 1 }
}
function judge(   f) {
    # 50 % of the round within 3 standard errors (1.5 times the printed
    # 95 % half-width) and 1 point (the code between the spins)
    if (50 < hot - 1.5 * (hot - lo) - 1 || 50 > hot + 1.5 * (hi - hot) + 1) {
        print "interval " n ": top_hot at " hot " % [" lo ", " hi "]"; bad = 1
    }
    split("top_inner top_outer top_irq_work", fs, " ")
    for (f in fs) if (c[fs[f]] < c["top_hot"] - 1 || c[fs[f]] > c["top_hot"] + 1) { print "interval " n ": " fs[f] " called " c[fs[f]] " times, top_hot " c["top_hot"]; bad = 1 }
    if (c["top_leaf"] < 10 * c["top_hot"] - 10 || c["top_leaf"] > 10 * c["top_hot"] + 10) { print "interval " n ": top_leaf " c["top_leaf"]; bad = 1 }
    if (c["top_hot"] < 1) { print "interval " n ": no call"; bad = 1 }
}
END { if (n) judge(); exit bad }' "$work/out.txt" || fail "the figures disagree with the firmware (above)"
expect_left_running "top --openocd"
echo "ok   top.openocd"
