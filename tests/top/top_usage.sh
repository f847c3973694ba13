#!/usr/bin/env bash
# top_usage.sh BOARD FWDIR WORKDIR - `mcuprof top` given bad input: one
# line on stderr each, naming what is wrong, nothing on stdout; exit
# status 2 for a usage error (as every command), 1 for an ELF that cannot
# be read or a debug server nobody runs (as pull). And --help.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
top_test top.usage "$@"

expect() { # STATUS PATTERN ARGS...
    local want=$1 pattern=$2 rc=0
    shift 2
    "$MCUPROF" top "$@" >"$work/out" 2>"$work/err" || rc=$?
    [ "$rc" = "$want" ] || { cat "$work/err"; fail "top $*: exit status $rc, not $want"; }
    [ "$(wc -l <"$work/err")" = 1 ] || { cat "$work/err"; fail "top $*: not one line"; }
    grep -qE "^mcuprof: error: $pattern" "$work/err" || { cat "$work/err"; fail "top $*: the line"; }
    [ ! -s "$work/out" ] || fail "top $*: something on stdout"
    echo "ok   top $*: $(cat "$work/err")"
}

port=$(free_port)
expect 2 "top: --interval '0' is not a number of seconds from 0.1 to 3600" --gdb 127.0.0.1:$port --elf "$elf" --interval 0
expect 2 "top: --interval '3601' is not" --gdb 127.0.0.1:$port --elf "$elf" --interval 3601
expect 2 "top: give the firmware: --elf FILE" --gdb 127.0.0.1:$port
expect 2 "top: give the firmware: --elf FILE" --gdb 127.0.0.1:$port --address 0x20000000
expect 2 "top: --count '0' is not a number from 1" --gdb 127.0.0.1:$port --elf "$elf" --count 0
expect 2 "top: --lines 'x' is not a number from 1" --gdb 127.0.0.1:$port --elf "$elf" --lines x
expect 2 "top: --sort 'time' is none of self, calls, inclusive" --gdb 127.0.0.1:$port --elf "$elf" --sort time
expect 2 "top: unexpected argument 'extra'" --gdb 127.0.0.1:$port --elf "$elf" extra
expect 2 "top: unknown option --bogus" --gdb 127.0.0.1:$port --elf "$elf" --bogus
expect 1 "$work/none.elf: " --gdb 127.0.0.1:$port --elf "$work/none.elf"
# nobody listens there: the connection is refused at once
expect 1 "127\.0\.0\.1:$port: " --gdb 127.0.0.1:$port --elf "$elf" --batch --timeout 2

"$MCUPROF" top --help >"$work/help"
grep -q '^Usage: mcuprof top ' "$work/help" || fail "--help: no usage line"
grep -q -- '--interval SECONDS' "$work/help" || fail "--help: no --interval"
"$MCUPROF" help top | cmp -s - "$work/help" || fail "'help top' differs from 'top --help'"
echo "ok   top.usage"
