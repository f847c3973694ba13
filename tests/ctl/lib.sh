# lib.sh - shared by the ctl tests (sourced), on top of tests/pull/lib.sh
# (QEMU with its gdbstub, fake servers, expect_error):
#   info_val IMG KEY       a value of `mcuprof info --json IMG`: a header
#                          word (state in hex, as `ctl status` prints it,
#                          arcs_used, freeze_request ...) or a counter
#   calls IMG              the total calls in IMG's arcs
#   losses IMG             samples_taken, missed periods and every loss counter
#   bins IMG               the samples in IMG's bins
#   status_val FILE KEY    a value of a saved `mcuprof ctl status` output
#   rounds                 the last heartbeat round of ctl_loop.c on the console
#   wait_rounds N          wait until the firmware has printed round N
#   same_status FILE IMG   the status in FILE says what IMG's header says
#   word FILE OFFSET       the little-endian 32-bit word at OFFSET of FILE
#   setword FILE OFFSET V  write it
#   run_ctl ARGS           `mcuprof ctl ARGS` must exit 0; its output in
#                          out.txt and err.txt (a fake server is stopped after)
#   refuse NAME PATTERN -- ARGS   `mcuprof ctl ARGS` exits 1 with one error
#                          line matching PATTERN (a fake server is stopped
#                          after it, so its memory is written back)
# Tools from the environment: MCUPROF (and others per test).

# shellcheck source=../pull/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../pull/lib.sh"
: "${MCUPROF:?}"

info_val() {
    local state
    if [ "$2" = state ]; then
        state=$(info_json "$1" '.header.state | numbers') && [ -n "$state" ] && printf '0x%x\n' "$state"
    else
        info_json "$1" ".header.$2 // .counters.$2 // .counters.lost.$2"
    fi
}
calls() { info_json "$1" .counters.total_calls; }
losses() { info_json "$1" '.counters | [.samples_taken, .missed_periods, .missed_source, .lost] | tostring'; }
bins() { info_json "$1" '[.ranges[].samples] | add // 0'; }
status_val() { awk -v k="$2" 'NR > 1 && $1 == k { print $2; exit }' "$1"; }

rounds() {
    local n
    n=$(grep -a '^ctl_loop: round ' "$work/uart.log" | tail -1 | tr -dc '0-9')
    echo "${n:-0}"
}

wait_rounds() { # N
    local deadline=$((SECONDS + 20))
    while [ "$(rounds)" -lt "$1" ]; do
        [ "$SECONDS" -lt "$deadline" ] || fail "the firmware never reached round $1 (at $(rounds))"
        sleep 0.05
    done
}

same_status() { # FILE IMG
    local k want got
    for k in state generation samples_taken freeze_request freeze_ack; do
        want=$(info_val "$2" "$k")
        got=$(status_val "$1" "$k")
        [ "$got" = "$want" ] || { cat "$1" >&2; fail "status $k '$got', info of $(basename "$2") '$want'"; }
    done
    want=$(info_val "$2" arcs_used)
    got=$(status_val "$1" arcs_used)
    [ "$got" = "$want" ] || { cat "$1" >&2; fail "status arcs_used '$got', info used '$want'"; }
}

refuse() {
    local name=$1 pattern=$2 rc=0
    shift 3
    "$MCUPROF" ctl "$@" >/dev/null 2>"$work/err.txt" || rc=$?
    stop_fake
    [ "$rc" = 1 ] || { cat "$work/err.txt" >&2; fail "$name: exit $rc, expected 1"; }
    [ "$(wc -l <"$work/err.txt")" = 1 ] && grep -q "^mcuprof: error: .*$pattern" "$work/err.txt" ||
        { cat "$work/err.txt" >&2; fail "$name: message"; }
    echo "ok   $name: $(cat "$work/err.txt")"
}

word() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
setword() {
    printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($3 & 255)) $(($3 >> 8 & 255)) $(($3 >> 16 & 255)) $(($3 >> 24 & 255)))" |
        dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

run_ctl() {
    local rc=0
    "$MCUPROF" ctl "$@" >out.txt 2>err.txt || rc=$?
    stop_fake
    [ "$rc" = 0 ] || { cat err.txt >&2; fail "ctl $*: exit $rc"; }
}
