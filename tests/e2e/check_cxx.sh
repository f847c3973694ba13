#!/usr/bin/env bash
# check_cxx.sh BOARD WORKDIR ELF_A ELF_B - the C++ firmware
# (firmware/cxx_shapes.cpp) in two builds (-O2, -Os), each run and checked
# by check_firmware.sh (gprof --no-demangle: exact counts under the ELF's
# symbols), then gprof's own demangled names, then every output of mcuprof that prints names
# checked for the names C++ users read, with the exact call counts:
#   report (flat profile and call graph; --no-demangle; --function in
#   either form), info, JSON (name and symbol), folded, pprof (read by
#   `go tool pprof -top`, name and system name), callgrind (read by
#   callgrind_annotate; calls= per callee), DOT (label and tooltip), the
#   linker order (sections by symbol); then `diff` of the two builds, which
#   matches their functions by name.
# The readable names below are written by hand, as a C++ reader spells
# them (and as gprof 2.40 prints them), not computed by the tool's own
# demangler. Tools: MCUPROF, GPROF, GPROF_CHECK (check_firmware.sh), jq,
# go, callgrind_annotate.
set -euo pipefail

board=$1
work=$2
elf_a=$(realpath "$3") # absolute: the checks run in their own directories
elf_b=$(realpath "$4")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${MCUPROF:?}"

fail() {
    echo "check_cxx: $board: $(basename "${elf:-$elf_a}"): $*" >&2
    exit 1
}
for tool in jq go callgrind_annotate; do
    command -v $tool >/dev/null || fail "$tool not found (ci/install-deps.sh installs it)"
done

# readable name | ELF symbol | calls (the firmware's 600 rounds)
round='motor::run_round(motor::Stage**, int)'
mkdir -p "$work"
cat >"$work/names.txt" <<EOF
$round|_ZN5motor9run_roundEPPNS_5StageEi|600
motor::Filter::step(int)|_ZN5motor6Filter4stepEi|600
motor::Gain::step(int)|_ZN5motor4Gain4stepEi|300
int accumulate<int>(int, int)|_Z10accumulateIiET_S0_S0_|600
unsigned int accumulate<unsigned int>(unsigned int, unsigned int)|_Z10accumulateIjET_S0_S0_|200
operator+(Vec const&, Vec const&)|_ZplRK3VecS1_|600
Vec::operator+=(Vec const&)|_ZN3VecpLERKS_|600
(anonymous namespace)::scale(int)|_ZN12_GLOBAL__N_15scaleEi|600
$round::{lambda(int)#1}::operator()(int) const|_ZZN5motor9run_roundEPPNS_5StageEiENKUliE_clEi|600
EOF
# the caller of NAME: main for run_round, run_round for the rest
caller_of() {
    if [ "$1" = "$round" ]; then echo main; else echo "$round"; fi
}

# calls FILE NAME: the flat profile's calls of NAME ("" when not listed)
flat_calls() {
    awk -v n="$2" '/^flat profile/ { on = 1; next } on && NF == 0 { exit }
        on && $1 ~ /^[0-9.]+$/ && substr($0, length($0) - length(n) + 1) == n &&
        substr($0, length($0) - length(n) - 1, 2) == "  " { print $4 }' "$1"
}
# check_one ELF DIR: run ELF under QEMU, then check every output in DIR
check_one() {
    elf=$1
    GPROF_FLAGS=--no-demangle bash "$here/check_firmware.sh" "$board" "$elf" "$2"
    cd "$2"
    cp ../names.txt .
    img=mcuprof.img

    # --- gprof itself prints the names written above (its flat profile:
    # calls in column 4, the name after the columns)
    "$GPROF" -b -p "$elf" gmon.gnu >gprof-flat.txt
    while IFS='|' read -r name _ calls; do
        awk -v n="$name" -v c="$calls" '$4 == c && substr($0, length($0) - length(n) - 1) == "  " n { ok = 1 }
            END { exit !ok }' gprof-flat.txt || fail "gprof does not print '$name' with $calls calls"
    done <names.txt
    echo "ok   gprof prints the same 9 names, with the same calls"

    # --- report: the flat profile's calls column ($4), the name to the end
    "$MCUPROF" report "$img" --elf "$elf" >report.txt 2>/dev/null
    "$MCUPROF" report "$img" --elf "$elf" --no-demangle >report-raw.txt 2>/dev/null
    while IFS='|' read -r name sym calls; do
        [ "$(flat_calls report.txt "$name")" = "$calls" ] ||
            fail "report: '$name' not listed with $calls calls (see $PWD/report.txt)"
        [ "$(flat_calls report-raw.txt "$sym")" = "$calls" ] ||
            fail "report --no-demangle: '$sym' not listed with $calls calls"
        # the call graph: the callee's line under its caller
        grep -qF -- "-> $name  " report.txt || [ "$name" = "$round" ] ||
            fail "report: no call graph line '-> $name'"
    done <names.txt
    ! grep -q '_Z' report.txt || fail "report prints a mangled name: $(grep -m1 '_Z' report.txt)"
    echo "ok   report: 9 functions demangled with their calls; --no-demangle: the symbols"
    for pattern in 'Filter::step' '_ZN5motor6Filter'; do
        "$MCUPROF" report "$img" --elf "$elf" --function "$pattern" --no-graph >filtered.txt 2>/dev/null
        [ "$(flat_calls filtered.txt 'motor::Filter::step(int)')" = 600 ] ||
            fail "report --function '$pattern' does not select motor::Filter::step(int)"
        [ -z "$(flat_calls filtered.txt 'motor::Gain::step(int)')" ] ||
            fail "report --function '$pattern' selects motor::Gain::step(int) too"
    done
    echo "ok   report --function: the readable name and the symbol select the same function"

    # --- info: the functions listed
    "$MCUPROF" info "$img" --elf "$elf" >info.txt 2>/dev/null
    grep -qF 'motor::Filter::step(int)' info.txt || fail "info does not list motor::Filter::step(int)"
    ! grep -q '_Z' info.txt || fail "info prints a mangled name: $(grep -m1 '_Z' info.txt)"

    # --- every format at once
    "$MCUPROF" convert "$img" --elf "$elf" \
        --format json:cxx.json,folded:cxx.folded,pprof:cxx.pb.gz,callgrind:cxx.callgrind,dot:cxx.dot,order:cxx.ld \
        2>/dev/null
    "$MCUPROF" convert "$img" --elf "$elf" --no-demangle --format json:raw.json,folded:raw.folded 2>/dev/null

    # JSON: name and symbol side by side, calls, arcs by name; read back
    # with and without --no-demangle
    jq -r '.functions[] | "\(.name)|\(.symbol)|\(.calls)"' cxx.json >json-funcs.txt
    jq -r '.functions[] | "\(.name)|\(.symbol)"' raw.json >json-raw.txt
    jq -r '.arcs[] | "\(.caller)|\(.callee_name)|\(.count)"' cxx.json >json-arcs.txt
    while IFS='|' read -r name sym calls; do
        grep -qxF "$name|$sym|$calls" json-funcs.txt ||
            fail "json: symbol $sym: $(grep -F "|$sym|" json-funcs.txt), want '$name|$sym|$calls'"
        grep -qxF "$sym|$sym" json-raw.txt || fail "json --no-demangle: symbol $sym not named so"
        [ "$(grep -F "|$name|" json-arcs.txt)" = "$(caller_of "$name")|$name|$calls" ] ||
            fail "json: arcs into '$name': $(grep -F "|$name|" json-arcs.txt)"
    done <names.txt
    "$MCUPROF" info --json raw.json >back.json 2>/dev/null
    cmp -s <(jq -S '.functions' back.json) <(jq -S '.functions' cxx.json) ||
        fail "json written with --no-demangle, read back: the names are not made again from the symbols"
    "$MCUPROF" info --json cxx.json --no-demangle >back-raw.json 2>/dev/null
    cmp -s <(jq -S '.functions' back-raw.json) <(jq -S '.functions' raw.json) ||
        fail "json read back with --no-demangle: not the symbols"
    echo "ok   json: name, symbol, calls and arcs; read back, the reader's --no-demangle decides"

    # folded: the frames by their readable names; no symbol
    for name in 'motor::Filter::step(int)' 'motor::Gain::step(int)' '(anonymous namespace)::scale(int)' \
        "$round::{lambda(int)#1}::operator()(int) const"; do
        grep -qF "main;$round;$name " cxx.folded || fail "folded: no stack 'main;$round;$name'"
    done
    while IFS='|' read -r name sym _; do
        grep -qF ";$name" cxx.folded || fail "folded: no frame '$name'"
        grep -qF ";$sym" raw.folded || fail "folded --no-demangle: no frame '$sym'"
    done <names.txt
    ! grep -q '_Z' cxx.folded || fail "folded has a mangled frame: $(grep -m1 '_Z' cxx.folded)"
    echo "ok   folded: stacks of readable names; --no-demangle: the symbols"

    # pprof, read by go tool pprof: each function's calls (-sample_index=calls:
    # flat calls counted into it), by name; the system names are the symbols
    mkdir -p home
    export HOME=$PWD/home GOCACHE=$PWD/home/gocache GOPATH=$PWD/home/go GOFLAGS= \
        GOTOOLCHAIN=local GOPROXY=off GOTELEMETRY=off PPROF_TMPDIR=$PWD/home
    go tool pprof -top -nodefraction=0 -sample_index=calls -symbolize=none cxx.pb.gz >pprof-top.txt 2>pprof.err ||
        fail "go tool pprof -top failed: $(head -3 pprof.err)"
    # "flat flat% sum% cum cum% NAME...": the name from field 6 to the end
    awk '$1 == "flat" && $2 == "flat%" { on = 1; next }
         on && NF >= 6 { n = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", n); print n "|" $1 }' \
        pprof-top.txt >pprof-calls.txt
    while IFS='|' read -r name _ calls; do
        grep -qxF "$name|$calls" pprof-calls.txt ||
            fail "go tool pprof -top -sample_index=calls: '$name' not with $calls calls (see $PWD/pprof-top.txt)"
    done <names.txt
    go tool pprof -raw -symbolize=none cxx.pb.gz >pprof-raw.txt 2>pprof.err || fail "go tool pprof -raw failed"
    # -raw lists each location's function as "NAME FILE:LINE s=LINE(SYSTEM_NAME)"
    while IFS='|' read -r name sym _; do
        grep -F " M=1 $name " pprof-raw.txt | grep -qF "($sym)" ||
            fail "pprof -raw: no function '$name' with system name $sym"
    done <names.txt
    echo "ok   pprof: go tool pprof -top lists the readable names with their calls, -raw their symbols"

    # callgrind: callgrind_annotate reads it and lists the names; calls= after
    # each cfn= add up to each callee's calls
    callgrind_annotate --threshold=100 --auto=no cxx.callgrind >annotate.txt 2>annotate.err ||
        fail "callgrind_annotate failed: $(head -3 annotate.err)"
    [ ! -s annotate.err ] || fail "callgrind_annotate: $(head -3 annotate.err)"
    awk '/^c?fn=\(/ { id = $0; sub(/^c?fn=/, "", id); nm = id; sub(/^\([0-9]+\) ?/, "", nm)
                      sub(/\).*/, ")", id); if (nm != "") name[id] = nm }
         /^cfn=\(/ { cur = id }
         /^calls=/ { split(substr($0, 7), c, " "); calls[name[cur]] += c[1] }
         END { for (n in calls) print n "|" calls[n] }' cxx.callgrind >callgrind-calls.txt
    while IFS='|' read -r name _ calls; do
        grep -qF "$name" annotate.txt || fail "callgrind_annotate does not list '$name'"
        grep -qxF "$name|$calls" callgrind-calls.txt || fail "callgrind: calls into '$name' are not $calls"
    done <names.txt
    echo "ok   callgrind: callgrind_annotate lists the readable names; calls= exact"

    # DOT: the label starts with the readable name ('&' escaped: DOT reads
    # entities) and
    # counts the calls; the tooltip is the symbol
    while IFS='|' read -r name sym calls; do
        grep -F "label=\"${name//&/&amp;}\\nself" cxx.dot | grep -F "\\n$calls calls" | grep -qF "tooltip=\"$sym\"" ||
            fail "dot: no node '$name' with $calls calls and tooltip $sym"
    done <names.txt
    echo "ok   dot: nodes by readable name, their calls, the symbol as tooltip"

    # order: sections by symbol, the readable name beside
    grep -qxF "*(.text._ZN5motor6Filter4stepEi) /* motor::Filter::step(int) */" cxx.ld ||
        fail "order: no line for .text._ZN5motor6Filter4stepEi"

    echo "check_cxx: $board: $(basename "$elf"): all checks passed"
}

check_one "$elf_a" "$work/a"
check_one "$elf_b" "$work/b"
elf=

# diff of the two builds: functions matched by name, listed by readable
# name (their shares differ: the -Os code runs another number of cycles)
cd "$work"
"$MCUPROF" diff a/mcuprof.img b/mcuprof.img --elf-a "$elf_a" --elf-b "$elf_b" --top 0 >diff.txt 2>/dev/null ||
    fail "diff of the two builds failed"
while IFS='|' read -r name _ _; do
    grep -F "  $name  " diff.txt | grep -q ' %  ' || fail "diff: '$name' has no share in both builds"
    ! grep '^  only in' diff.txt | grep -qF "$name" || fail "diff: '$name' matched in one build only"
done <names.txt
! grep -q '_Z' diff.txt || fail "diff prints a mangled name: $(grep -m1 '_Z' diff.txt)"
"$MCUPROF" diff a/mcuprof.img b/mcuprof.img --elf-a "$elf_a" --elf-b "$elf_b" --top 0 --no-demangle \
    >diff-raw.txt 2>/dev/null || fail "diff --no-demangle failed"
grep -qF '_ZN5motor6Filter4stepEi' diff-raw.txt || fail "diff --no-demangle does not list the symbols"
echo "ok   diff: the two builds matched by name, listed by readable name; --no-demangle: the symbols"
echo "check_cxx: $board: all checks passed"
