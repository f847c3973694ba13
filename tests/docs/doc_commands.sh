#!/usr/bin/env bash
# doc_commands.sh GROUP WORKDIR - every command line README.md and docs/
# show in a fenced code block (doc_commands.awk finds them) does what the
# text next to it says, run as written on real firmware under QEMU.
#   list     every command line shown is in the table (doc_commands.table),
#            run or not run with a reason, and every entry of it is still shown
#   qemu     the QEMU command lines of docs/pulling.md, run on the demo
#            (mps2-an385 and riscv32-virt) and on the demo built with
#            PATHS: their images are what the other groups read
#   default  the commands on the demo of the default build, in
#            WORKDIR/default holding app.elf, firmware.elf, fw.elf,
#            demo.elf and mcuprof.img as the docs name them
#   paths    the commands the docs show with a PATHS build, on the demo
#            built with PATHS 64
#   rtos     docs/rtos.md's example step by step, on the app.elf
#            rtos.<board>.example builds (RTOS_EXAMPLE_DIR-<board>)
#   target   against QEMU's gdbstub on the ports the docs name, in a
#            network namespace of its own (unshare -n; skipped, exit 77,
#            where it cannot make one): the table's group "idle" (pull, GDB
#            and the web UI on its fixed port) with pull_idle.elf, then
#            "loop" (the ctl transcript) with ctl_loop.elf
# A command runs through bash in the group's directory, with `mcuprof` on
# the PATH (doc_run.sh); the table names the check (doc_checks.sh) that
# reads what it did. A command line changed in a doc, or one added,
# fails `list` until the table (and the check) says what it claims.
# Environment: MCUPROF, DEMO (demo.elf, mps2-an385), DEMO_RV (riscv32-virt,
# optional), DEMO_PATHS, IDLE (pull_idle.elf), LOOP (ctl_loop.elf),
# RTOS_EXAMPLE_DIR (optional).
set -euo pipefail
group=$1
work=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
qemu_dir=$(dirname "$work")/qemu

fail() {
    echo "doc_commands $group: FAIL: $*" >&2
    exit 1
}

# shellcheck source=doc_run.sh
. "$here/doc_run.sh"
# shellcheck source=doc_checks.sh
. "$here/doc_checks.sh"

# The table's entries (doc_commands.table): "GROUP\tCHECK\tKEY".
entries() {
    awk -F ' :: ' '!/^#/ && NF >= 3 { k = $3; for (i = 4; i <= NF; i++) k = k " :: " $i; print $1 "\t" $2 "\t" k }' "$here/doc_commands.table"
}

# The commands the docs show: "FILE\tLINE\tSECTION\tKEY" (KEY: the command,
# then " # " and its comment when it has one).
shown() {
    (cd "$repo" && awk -f "$here/doc_commands.awk" README.md docs/*.md docs/formats/*.md) |
        awk -F '\t' '{ print $1 "\t" $2 "\t" $3 "\t" $4 ($5 != "" ? " # " $5 : "") }'
}

# A table key matches a command shown: the same text, or, for a key that
# ends in "..." (a synopsis, whose check reads the options from the
# command itself), the text before it.
MATCH='function matches(key, c) { return key == c || (key ~ /\.\.\.$/ && index(c, substr(key, 1, length(key) - 3)) == 1) }'
in_column() { # N TEXT FILE: whether column N of the tab-separated FILE is TEXT on some line
    T=$2 awk -F '\t' -v n="$1" '$n == ENVIRON["T"] { f = 1; exit } END { exit !f }' "$3"
}
covered() { # KEY: whether a table entry matches the command KEY shown
    K=$1 awk -F '\t' "$MATCH"' matches($3, ENVIRON["K"]) { f = 1; exit } END { exit !f }' "$work/entries"
}
shown_as() { # KEY: the commands shown that the table entry KEY matches, as lines of $work/shown
    K=$1 awk -F '\t' "$MATCH"' matches(ENVIRON["K"], $4)' "$work/shown"
}

group_list() {
    local bad=0 n=0 file line sect key
    shown >"$work/shown"
    entries >"$work/entries"
    while IFS=$'\t' read -r file line sect key; do
        n=$((n + 1))
        if ! covered "$key" && ! in_column 3 "§$file#$sect" "$work/entries"; then
            echo "$file:$line: not in tests/docs/doc_commands.table (run it with a check, or say why not): $key" >&2
            bad=1
        fi
    done <"$work/shown"
    while IFS=$'\t' read -r _ _ key; do
        if [[ $key == §* ]]; then
            awk -F '\t' -v k="$key" '"§" $1 "#" $3 == k { f = 1 } END { exit !f }' "$work/shown"
        else
            [ -n "$(shown_as "$key")" ]
        fi || {
            echo "the table lists a command no doc shows any more: $key" >&2
            bad=1
        }
    done <"$work/entries"
    [ "$bad" -eq 0 ] || fail "the docs' command lines and the table differ (above)"
    echo "ok   $n command lines shown in README.md and docs/: $(grep -c $'^[a-z]*\t' "$work/entries") run with a check, $(grep -c $'^not run\t' "$work/entries") not run, each with its reason"
}

# --- the groups ----------------------------------------------------------------

run_group() { # GROUP: each of its entries in table order
    local n=0 c
    while IFS=$'\t' read -r _ c entry; do
        IFS=$'\t' read -r first_file first_line _ key < <(shown_as "$entry")
        [ -n "$first_file" ] || fail "no doc shows: $entry (docs.commands.list says more)"
        cmd=${key%% # *}
        comment=
        [[ $key == *' # '* ]] && comment=${key#* # }
        "chk_$c"
        echo "ok   $first_file:$first_line: $key"
        n=$((n + 1))
    done < <(awk -F '\t' -v g="$1" '$1 == g' "$work/entries")
    echo "ok   $1: $n command lines do what the docs say"
}

setup() {
    rm -rf "$work"
    mkdir -p "$work" "$bin"
    ln -s "$MCUPROF" "$bin/mcuprof"
    shown >"$work/shown"
    entries >"$work/entries"
    # go wants a writable home and cache, and must never fetch anything
    export HOME=$work/home GOCACHE=$work/home/gocache GOPATH=$work/home/go GOFLAGS= \
        GOTOOLCHAIN=local GOPROXY=off GOTELEMETRY=off PPROF_TMPDIR=$work/home
    mkdir -p "$HOME"
}

from_qemu() { # DIR: the image of the qemu group's DIR, and the ELF under every name the docs use
    [ -s "$qemu_dir/$1/mcuprof.img" ] || fail "no $qemu_dir/$1/mcuprof.img: run docs.commands.qemu first"
    cp "$qemu_dir/$1/mcuprof.img" "$work/"
    local n
    for n in app.elf firmware.elf fw.elf demo.elf; do cp "$qemu_dir/$1/app.elf" "$work/$n"; done
}

# needs PROGRAM...: skip the group (exit 77) and say which is missing
needs() {
    local p missing=()
    for p in "$@"; do command -v "$p" >/dev/null || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] || { echo "skip $group: ${missing[*]} not found (ci/install-deps.sh installs it)"; exit 77; }
}

: "${MCUPROF:?}"
case $group in
qemu) needs qemu-system-arm ;;
default) needs arm-none-eabi-gprof go dot jq callgrind_annotate curl ;;
paths) needs go jq curl ;;
rtos) needs qemu-system-arm ;;
target) needs go jq curl gdb-multiarch qemu-system-arm ip unshare ;;
esac
case $group in
list)
    rm -rf "$work"
    mkdir -p "$work"
    group_list
    ;;
qemu)
    : "${DEMO:?}" "${DEMO_PATHS:?}"
    setup
    run_group qemu
    ;;
default)
    : "${DEMO:?}" "${DEMO_PATHS:?}"
    setup
    from_qemu arm
    run_group default
    ;;
paths)
    setup
    from_qemu paths
    run_group paths
    ;;
rtos)
    [ -s "${RTOS_EXAMPLE_DIR:-}-mps2-an385/app.elf" ] ||
        { echo "skip rtos: examples/freertos is not built (FreeRTOS kernel not found: MCUPROF_FREERTOS_DIR)"; exit 77; }
    setup
    run_group rtos
    ;;
target)
    : "${IDLE:?}" "${LOOP:?}" "${DEMO:?}"
    if [ "${DOC_COMMANDS_NETNS:-}" != 1 ]; then
        unshare -n true 2>/dev/null || { echo "skip: cannot make a network namespace (unshare -n) for the docs' fixed ports"; exit 77; }
        exec unshare -n env DOC_COMMANDS_NETNS=1 bash "$0" "$@"
    fi
    ip link set lo up
    setup
    trap stop_gdbstubs EXIT
    cp "$IDLE" "$work/app.elf"
    start_gdbstub "$IDLE" 3333 "$work/idle" "pull_idle: ready"
    run_group idle
    stop_gdbstubs
    cp "$LOOP" "$work/app.elf"
    start_gdbstub "$LOOP" 3333 "$work/loop" "ctl_loop: running"
    run_group loop
    ;;
*) fail "GROUP is list, qemu, default, paths, rtos or target" ;;
esac

