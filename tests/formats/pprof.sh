#!/usr/bin/env bash
# pprof.sh time|calls|counters - the pprof output of the demo's profile,
# read back by `go tool pprof`, the program users open it with.
#   time      flat % per function equals gprof's flat profile (same image,
#             --format gnu) and the demo's EXPECT shares within 1 point;
#             cpu/nanoseconds = samples x period; a profile written
#             without --elf is accepted and pprof names it from the ELF
#   calls     -sample_index=calls traces carry the exact call count of
#             every arc the demo prints (EXPECT lines), no tail-call arc,
#             and the calls from outside code labelled caller=<spontaneous>
#   counters  comments and mapping carry what `mcuprof info --json` says (loss
#             counters, build-id); an image with an unknown rate (0) gives
#             a profile without the cpu/nanoseconds type
# Environment (tests/formats/CMakeLists.txt): MCUPROF ELF IMG WORK BOARD.
set -euo pipefail
mode=$1
uart=$(dirname "$IMG")/uart.log

fail() {
    echo "pprof.sh $mode: $BOARD: $*" >&2
    exit 1
}

rm -rf "$WORK"
mkdir -p "$WORK/home"
# The go command wants a writable home and build cache; it must never
# fetch a toolchain or a module.
export HOME=$WORK/home GOCACHE=$WORK/home/gocache GOPATH=$WORK/home/go GOFLAGS= \
    GOTOOLCHAIN=local GOPROXY=off GOTELEMETRY=off PPROF_TMPDIR=$WORK/home
pprof() {
    go tool pprof "$@" 2>"$WORK/pprof.err" || {
        cat "$WORK/pprof.err" >&2
        fail "go tool pprof $* failed"
    }
}

grep -q '^EXPECT ' "$uart" || fail "no EXPECT lines in $uart"
prof=$WORK/demo.pb.gz
"$MCUPROF" convert "$IMG" --elf "$ELF" --format "pprof:$prof"
"$MCUPROF" info --json "$IMG" >"$WORK/info.json"
info() { # the value of jq FILTER on `mcuprof info --json`
    jq -r "$1" "$WORK/info.json"
}

# name flat% of each function of a `pprof -top` listing
top_flat() {
    awk 'hdr && NF >= 6 { p = $2; sub(/%$/, "", p); print $6, p }
         $1 == "flat" && $2 == "flat%" { hdr = 1 }' "$1"
}

# pct FILE FN: FN's percentage in a "name pct" list, 0 when absent
pct() {
    awk -v f="$2" '$1 == f { p = $2 } END { print p + 0 }' "$1"
}

# within A B TOL: |A - B| <= TOL
within() {
    awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}

check_time() {
    local gprof gmon=$WORK/gmon.out n=0 worst=0
    case $(info .machine.e_machine) in
    40) gprof=arm-none-eabi-gprof ;;
    243) gprof=riscv64-unknown-elf-gprof ;;
    *) fail "machine $(info .machine.e_machine): no gprof known for it" ;;
    esac

    pprof -top -nodefraction=0 -sample_index=samples -symbolize=none "$prof" >"$WORK/top.txt"
    top_flat "$WORK/top.txt" >"$WORK/pprof.flat"
    [ -s "$WORK/pprof.flat" ] || fail "pprof -top listed no function"

    "$MCUPROF" convert "$IMG" --elf "$ELF" --format "gnu:$gmon"
    "$gprof" -b -p "$ELF" "$gmon" | awk '$1 ~ /^[0-9.]+$/ { print $NF, $1 }' >"$WORK/gprof.flat"
    [ -s "$WORK/gprof.flat" ] || fail "gprof printed no flat profile"

    # Every function either lists, each within 1 point of the other.
    while read -r fn p; do
        within "$p" "$(pct "$WORK/gprof.flat" "$fn")" 1 ||
            fail "$fn: pprof flat $p % vs gprof $(pct "$WORK/gprof.flat" "$fn") %"
        n=$((n + 1))
    done <"$WORK/pprof.flat"
    while read -r fn p; do
        within "$p" "$(pct "$WORK/pprof.flat" "$fn")" 1 ||
            fail "$fn: gprof $p % vs pprof flat $(pct "$WORK/pprof.flat" "$fn") %"
    done <"$WORK/gprof.flat"

    # The firmware's truth: hot_a : hot_b : hot_c = 3 : 2 : 1.
    while read -r _ _ fn share _; do
        local got
        got=$(pct "$WORK/pprof.flat" "$fn")
        within "$got" "$share" 1 || fail "$fn: pprof flat $got %, the firmware expects $share %"
        echo "$BOARD: $fn flat $got % (expected $share, gprof $(pct "$WORK/gprof.flat" "$fn"))"
    done < <(grep '^EXPECT share ' "$uart")

    # cpu/nanoseconds: each sample's samples x the period, 1e9 / rate.
    local rate period
    rate=$(info .sample_rate_hz)
    pprof -raw -symbolize=none "$prof" >"$WORK/raw.txt"
    period=$(awk '$1 == "Period:" { print $2 }' "$WORK/raw.txt")
    [ "$period" = $(((1000000000 + rate / 2) / rate)) ] || fail "period $period ns at $rate Hz"
    grep -q '^PeriodType: cpu nanoseconds$' "$WORK/raw.txt" || fail "period type is not cpu/nanoseconds"
    grep -q '^samples/count\[dflt\] cpu/nanoseconds calls/count$' "$WORK/raw.txt" ||
        fail "sample types are not samples/count, cpu/nanoseconds, calls/count"
    awk -v p="$period" '/^Samples:/ { s = 1; next } /^Locations/ { s = 0 }
        s && $3 ~ /:$/ && $2 != $1 * p { bad++ } s && $3 ~ /:$/ { rows++; total += $1 }
        END { if (bad || !rows) exit 1; print total > "/dev/stderr" }' "$WORK/raw.txt" 2>"$WORK/total" ||
        fail "a sample's cpu/nanoseconds is not samples x $period"
    # every sample the sampler could see (the demo loses none): those it
    # took less those held off by a handler, binned nowhere
    [ "$(cat "$WORK/total")" = "$(info .samples_total)" ] ||
        fail "samples in pprof $(cat "$WORK/total"), samples_total $(info .samples_total) (samples_taken" \
            "$(info .counters.samples_taken) less those held off)"

    # Without --elf: addresses only; pprof names them from the ELF itself.
    "$MCUPROF" convert "$IMG" --format "pprof:$WORK/noelf.pb.gz"
    pprof -raw "$WORK/noelf.pb.gz" >"$WORK/noelf.raw"
    grep -q '^Locations' "$WORK/noelf.raw" || fail "the profile without --elf has no locations"
    pprof -top -nodefraction=0 -sample_index=samples "$ELF" "$WORK/noelf.pb.gz" >"$WORK/noelf.top"
    top_flat "$WORK/noelf.top" >"$WORK/noelf.flat"
    for fn in hot_a hot_b hot_c; do
        [ "$(pct "$WORK/noelf.flat" $fn)" = "$(pct "$WORK/pprof.flat" $fn)" ] ||
            fail "$fn: named from the ELF by pprof, flat $(pct "$WORK/noelf.flat" $fn) % differs from" \
                "$(pct "$WORK/pprof.flat" $fn) % under mcuprof's names"
    done
    echo "$BOARD: $n functions, pprof flat % = gprof's within 1 point; cpu/nanoseconds = samples x $period"
}

# caller callee calls label, one line per call-graph trace with calls
traces() {
    awk 'function out() { if (v > 0) print (caller == "" ? "-" : caller), leaf, v, (lab == "" ? "-" : lab) }
         /^-+\+-+$/ { out(); v = 0; leaf = caller = lab = ""; next }
         $1 ~ /:$/ && NF == 2 { k = $1; sub(/:$/, "", k); lab = lab k "=" $2; next }
         NF == 2 && $1 ~ /^[0-9]+$/ { v = $1; leaf = $2; next }
         NF == 1 && leaf != "" && caller == "" { caller = $1 }
         END { out() }' "$1"
}

check_calls() {
    local n=0
    pprof -traces -sample_index=calls -symbolize=none "$prof" >"$WORK/traces.txt"
    traces "$WORK/traces.txt" >"$WORK/arcs.txt"
    [ -s "$WORK/arcs.txt" ] || fail "no trace has calls"
    sum() { # sum CALLER CALLEE ('*': any)
        awk -v a="$1" -v b="$2" '(a == "*" || $1 == a) && $2 == b { s += $3 } END { print s + 0 }' "$WORK/arcs.txt"
    }
    while read -r _ kind a b count; do
        case $kind in
        arc) got=$(sum "$a" "$b") ;;
        calls) got=$(sum '*' "$a") count=$b ;;
        noarc) got=$(sum "$a" "$b") count=0 ;;
        *) continue ;;
        esac
        [ "$got" = "$count" ] || fail "$kind $a $b: pprof traces say $got calls, the firmware counted $count"
        n=$((n + 1))
    done < <(grep '^EXPECT \(arc\|calls\|noarc\) ' "$uart")

    # Calls whose caller is not code: one frame, labelled.
    local outside spont
    outside=$(info .counters.outside_calls)
    spont=$(awk '$4 == "caller=<spontaneous>" { if ($1 != "-") bad = 1; s += $3 } END { print bad ? -1 : s + 0 }' \
        "$WORK/arcs.txt")
    [ "$spont" = "${outside:-0}" ] ||
        fail "calls labelled caller=<spontaneous>: $spont, mcuprof info: ${outside:-0} from outside code"
    echo "$BOARD: $n EXPECT call counts exact in pprof -traces; $spont calls from outside code labelled"
}

check_counters() {
    local k v
    pprof -comments "$prof" >"$WORK/comments.txt"
    for k in samples_taken missed_periods lost_arcs_table_full lost_calls_reentrant lost_calls_frozen \
        lost_samples_out_of_range lost_samples_saturated lost_samples_frozen; do
        v=$(jq -r --arg k "$k" '.counters[$k] // .counters.lost[$k]' "$WORK/info.json")
        [ -n "$v" ] && [ "$v" != null ] || fail "mcuprof info --json has no $k"
        grep -q "[ ,]$k $v\b" "$WORK/comments.txt" || fail "pprof -comments does not show $k $v"
    done
    pprof -raw -symbolize=none "$prof" >"$WORK/raw.txt"
    grep -A1 '^Mappings' "$WORK/raw.txt" | grep -q " $(basename "$ELF") $(info .build_id)\b" ||
        fail "mapping does not name $(basename "$ELF") with build-id $(info .build_id)"

    # A rate of 0 (sample_rate_hz, bytes 48..51 of the header): no time
    # unit, the same counts.
    cp "$IMG" "$WORK/rate0.img"
    printf '\0\0\0\0' | dd of="$WORK/rate0.img" bs=1 seek=48 conv=notrunc status=none
    [ "$("$MCUPROF" info --json "$WORK/rate0.img" | jq .sample_rate_hz)" = 0 ] ||
        fail "the patched image does not have a rate of 0"
    "$MCUPROF" convert "$WORK/rate0.img" --elf "$ELF" --format "pprof:$WORK/rate0.pb.gz"
    pprof -raw -symbolize=none "$WORK/rate0.pb.gz" >"$WORK/rate0.raw"
    grep -q '^samples/count\[dflt\] calls/count$' "$WORK/rate0.raw" ||
        fail "rate 0: sample types are not samples/count, calls/count"
    grep -q '^PeriodType: cpu\|^Period: [1-9]' "$WORK/rate0.raw" && fail "rate 0: a cpu type or a period was written"
    pprof -top -nodefraction=0 -sample_index=samples -symbolize=none "$WORK/rate0.pb.gz" >"$WORK/rate0.top"
    [ "$(top_flat "$WORK/rate0.top")" = "$(top_flat <(pprof -top -nodefraction=0 -sample_index=samples \
        -symbolize=none "$prof"))" ] || fail "rate 0: flat profile differs"
    echo "$BOARD: comments carry samples_taken $(info .counters.samples_taken) and the loss counters; build-id" \
        "$(info .build_id); rate 0 drops cpu/nanoseconds"
}

case $mode in
time) check_time ;;
calls) check_calls ;;
counters) check_counters ;;
*) fail "unknown mode" ;;
esac
