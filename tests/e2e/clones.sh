#!/usr/bin/env bash
# clones.sh BOARD ELF WORKDIR - GCC's clones (tests/e2e/firmware/clones.c)
# named and charged exactly, each on its own and grouped with its origin:
#   1. run the firmware under QEMU (deterministic -icount);
#   2. the clone kinds GCC must have made, read from the ELF's symbols:
#      .constprop and .isra always, .part at -O2, .cold at -O2 on RISC-V;
#   3. `mcuprof info --json --elf`, each clone its own function, then with
#      --group-clones: every function's calls exact and its share of the
#      listed functions' time within 1 point of the work it did;
#   4. report, callgrind and DOT say which view they show;
#   5. `mcuprof check` names each clone gprof drops and the function it
#      charges it to, and gprof's flat profile agrees: the dropped name is
#      missing and that function's calls are the calls into it and its
#      dropped clones from outside them; each clone check does not name is
#      listed by gprof.
# Tools from the environment: MCUPROF, GPROF; and jq.
set -euo pipefail

board=$1
elf=$2
work=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$here/../../ci/qemu/run.sh
: "${MCUPROF:?}" "${GPROF:?}"
nm=${GPROF%gprof}nm

fail() {
    echo "clones: $board: $(basename "$elf"): $*" >&2
    exit 1
}
command -v jq >/dev/null || fail "jq not found (ci/install-deps.sh installs it)"

rm -rf "$work"
mkdir -p "$work"
"$run" "$board" "$elf" --workdir "$work" --timeout 120 >"$work/uart.log" 2>"$work/stderr.log" ||
    { cat "$work/uart.log" "$work/stderr.log"; fail "the firmware failed"; }
img=$work/mcuprof.img
[ -s "$img" ] || fail "no mcuprof.img written"

# 2. the clones GCC made
"$nm" "$elf" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$work/syms.txt"
has() { grep -qxE "$1" "$work/syms.txt"; }
sym() { grep -xE "$1" "$work/syms.txt" | head -n 1; }
opt=o2
case $(basename "$elf") in *_os.elf) opt=os ;; esac
for kind in constprop isra; do
    has '.*\.'$kind'\.[0-9]+' || fail "GCC made no .$kind clone: the firmware tests nothing"
done
if [ $opt = o2 ]; then
    has 'lookup\.part\.[0-9]+' || fail "GCC made no .part clone at -O2"
    case $board in riscv*|sifive*) has 'rare_path\.cold' || fail "GCC made no .cold part at -O2 on RISC-V" ;; esac
fi
# GCC's clone names (libgcc's .divsi3_skip_div0_test is a label)
clone_re='^[^.].*\.(constprop|isra|part|cold|lto_priv|localalias|clone)(\.|$)'
grep -E "$clone_re" "$work/syms.txt" >"$work/clones.txt" || true
echo "ok   clones in the ELF: $(wc -l <"$work/clones.txt") ($(tr '\n' ' ' <"$work/clones.txt"))"

# 3. the truth: NAME CALLS UNITS, each symbol on its own, then grouped
# (units of work of 100 a round; the 25 rounds' calls)
burn_k=$(sym 'burn_k\.constprop\.[0-9]+')
burn_cfg=$(sym 'burn_cfg\.isra\.[0-9]+')
idle=$(sym 'idle_wait(\.constprop\.[0-9]+)?')
{
    echo "$burn_k 50 30"
    echo "$burn_cfg 50 20"
    echo "$idle 25 10"
    if has 'lookup\.part\.[0-9]+'; then
        echo "$(sym 'lookup\.part\.[0-9]+') 50 20"
    else
        echo "lookup 125 20"
    fi
    if has 'rare_path\.cold'; then
        echo "rare_path 25 10"
        echo "rare_path.cold 0 10"
    else
        echo "rare_path 25 20"
    fi
    echo "op_xor 300 0"
    echo "task_name 300 0"
    echo "rare_note 25 0"
} >"$work/truth.separate"
lookup_calls=125
has 'lookup\.part\.[0-9]+' && lookup_calls=50
cat >"$work/truth.grouped" <<TRUTH
burn_k 50 30
burn_cfg 50 20
idle_wait 25 10
lookup $lookup_calls 20
rare_path 25 20
op_xor 300 0
task_name 300 0
rare_note 25 0
TRUTH

judge() { # VIEW JSON: each truth row against the functions in JSON
    local view=$1 json=$2 bad=0 name calls units got_calls got_share want_share
    local total_units total_self
    total_units=$(awk '{ s += $3 } END { print s }' "$work/truth.$view")
    total_self=$(jq --slurpfile t <(awk '{ printf "\"%s\"\n", $1 }' "$work/truth.$view") \
        '[.functions[] | select(.name as $n | $t | index($n)) | .self] | add' "$json")
    while read -r name calls units; do
        got_calls=$(jq --arg n "$name" '[.functions[] | select(.name == $n) | .calls] | add // "none"' "$json")
        got_share=$(jq --arg n "$name" --argjson t "$total_self" \
            '[.functions[] | select(.name == $n) | .self] | add // 0 | . * 100 / $t' "$json")
        want_share=$(awk -v u="$units" -v t="$total_units" 'BEGIN { printf "%.2f", 100 * u / t }')
        if [ "$got_calls" != "$calls" ] ||
            ! awk -v g="$got_share" -v w="$want_share" 'BEGIN { d = g - w; exit !(d <= 1 && d >= -1) }'; then
            printf 'FAIL %-8s %-22s calls %s (want %s), %.2f %% (want %s +- 1)\n' "$view" "$name" "$got_calls" \
                "$calls" "$got_share" "$want_share"
            bad=1
        else
            printf 'ok   %-8s %-22s calls %s, %.2f %% (truth %s)\n' "$view" "$name" "$got_calls" "$got_share" \
                "$want_share"
        fi
    done <"$work/truth.$view"
    return $bad
}

"$MCUPROF" info --json "$img" --elf "$elf" >"$work/separate.json" 2>"$work/info.err"
"$MCUPROF" info --json --group-clones "$img" --elf "$elf" >"$work/grouped.json" 2>>"$work/info.err"
[ "$(jq '.clones.grouped' "$work/separate.json")" = false ] || fail "info --json: clones.grouped is not false"
[ "$(jq '.clones.grouped' "$work/grouped.json")" = true ] || fail "info --json --group-clones: clones.grouped is not true"
judge separate "$work/separate.json" || fail "a clone's calls or time are not its own"
judge grouped "$work/grouped.json" || fail "a group's calls or time are not its source function's"
# grouped, no clone name keeps time or calls of its own
left=$(jq -r '[.functions[] | select((.name | test("\\.(constprop|isra|part|cold)")) and (.self > 0 or .calls > 0)) | .name] | join(" ")' \
    "$work/grouped.json")
[ -z "$left" ] || fail "grouped, these clones still have time or calls of their own: $left"
# the JSON documents read back as they were written
for view in separate grouped; do
    "$MCUPROF" info --json "$work/$view.json" >"$work/$view.again.json" ||
        fail "the $view JSON document does not read back"
    cmp -s <(jq -S . "$work/$view.json") <(jq -S . "$work/$view.again.json") ||
        fail "the $view JSON document changes when read back"
done
echo "ok   both JSON documents read back unchanged"

# 4. every text output says which view it shows
nclones=$(wc -l <"$work/clones.txt")
"$MCUPROF" report "$img" --elf "$elf" >"$work/report.txt"
"$MCUPROF" report --group-clones "$img" --elf "$elf" >"$work/report.grouped.txt"
grep -q "clones.*$nclones GCC clones and cold parts, each its own function" "$work/report.txt" ||
    fail "report does not say that each clone is its own function"
grep -q "clones.*$nclones GCC clones and cold parts, grouped with their origin" "$work/report.grouped.txt" ||
    fail "report --group-clones does not say that clones are grouped"
for fmt in callgrind dot; do
    "$MCUPROF" convert --group-clones "$img" --elf "$elf" --format $fmt -o "$work/out.$fmt"
    grep -qi "clones: $nclones GCC clones and cold parts, grouped with their origin" "$work/out.$fmt" ||
        fail "$fmt output does not say that clones are grouped"
done
echo "ok   report, callgrind and DOT say which view they show"
# pprof, read by `go tool pprof` when it is installed: the view in its
# comments, each function's flat share within 1 point of its work
if command -v go >/dev/null; then
    for view in separate grouped; do
        opt=
        words="each its own function"
        [ $view = grouped ] && opt=--group-clones words="grouped with their origin"
        "$MCUPROF" convert $opt "$img" --elf "$elf" --format pprof -o "$work/$view.pb.gz"
        go tool pprof -top -nodecount=200 "$work/$view.pb.gz" >"$work/$view.pprof.txt" 2>/dev/null ||
            fail "go tool pprof cannot read the $view profile"
        grep -q "clones: $nclones GCC clones and cold parts, $words" "$work/$view.pprof.txt" ||
            fail "the $view pprof profile does not say which view it shows"
        total_units=$(awk '{ s += $3 } END { print s }' "$work/truth.$view")
        while read -r name _ units; do
            [ "$units" -gt 0 ] || continue
            got=$(awk -v n="$name" '$6 == n { sub(/%/, "", $2); print $2 }' "$work/$view.pprof.txt")
            awk -v g="${got:-none}" -v w="$(awk -v u="$units" -v t="$total_units" 'BEGIN { print 100 * u / t }')" \
                'BEGIN { d = g - w; exit !(g != "none" && d <= 1 && d >= -1) }' ||
                fail "pprof ($view) gives $name ${got:-no} % for $units of $total_units units"
        done <"$work/truth.$view"
    done
    echo "ok   go tool pprof: each view's shares and its comment"
fi

# 5. what gprof does with them, as `check` predicts it: a dropped clone's
# calls go to the function gprof charges it to, and the calls between the
# functions gprof merges that way become recursion, which gprof's flat
# profile does not count
"$MCUPROF" convert "$img" -o "$work/gmon.out" --format gnu
"$GPROF" -b -p -z "$elf" "$work/gmon.out" >"$work/flat.txt"
"$MCUPROF" check "$elf" >"$work/check.txt" || true
sed -n 's/^[^:]*: \([^ :]*\): warning: gprof drops this name and charges its time and calls to \([^ ;:(]*\) .*/\1 \2/p' \
    "$work/check.txt" >"$work/dropped.txt"
gprof_calls() { awk -v n="$1" '$NF == n && NF >= 6 { print $4; f = 1 } END { if (!f) print 0 }' "$work/flat.txt"; }
bad=0
while read -r name; do
    if grep -q "^$name " "$work/dropped.txt"; then
        if grep -qw -- "$name" "$work/flat.txt"; then
            echo "FAIL check says gprof drops $name, but gprof lists it"
            bad=1
        else
            echo "ok   gprof drops $name, as check says"
        fi
    elif grep -qw -- "$name" "$work/flat.txt"; then
        echo "ok   gprof lists $name, and check says nothing of it"
    else
        echo "FAIL gprof does not list $name, and check does not say so"
        bad=1
    fi
done <"$work/clones.txt"
[ -s "$work/dropped.txt" ] || { echo "FAIL check names no clone gprof drops"; bad=1; }
for owner in $(awk '{ print $2 }' "$work/dropped.txt" | sort -u); do
    merged=$(awk -v o="$owner" '$2 == o { printf "\"%s\",", $1 } END { printf "\"%s\"", o }' "$work/dropped.txt")
    want=$(jq "[$merged] as \$s | [.arcs[] | select((.callee_name as \$c | \$s | index(\$c)) and
        ((.caller // \"\") as \$c | \$s | index(\$c) | not)) | .count] | add // 0" "$work/separate.json")
    got=$(gprof_calls "$owner")
    if [ "$got" != "$want" ]; then
        echo "FAIL gprof gives $owner $got calls; check's prediction (its own and [$merged]'s from outside them) is $want"
        bad=1
    else
        echo "ok   gprof gives $owner $got calls: those of [$merged] from outside them, as check predicts"
    fi
done
[ $bad -eq 0 ] || { cat "$work/check.txt"; fail "check does not predict what gprof does with the clones"; }
echo "clones: $board: $(basename "$elf"): all checks passed"
