#!/usr/bin/env bash
# top_link_lost.sh BOARD FWDIR WORKDIR - the target goes away (QEMU killed)
# while `mcuprof top` watches it:
#   - batch: the blocks so far on stdout, then one error line saying the
#     link was lost and how, exit status 1;
#   - on a terminal (tmux): the screen says LINK LOST, then the terminal
#     is given back (stty -a the same, the shell's screen back) and the one
#     error line is on stderr, exit status 1.
# (A kill that lands inside a snapshot leaves top unable to say whether
# the freeze it asked for was released: a second line says so, as for
# pull; the interval is 0.5 s and a snapshot a few milliseconds, so that
# is rare, and allowed.)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
top_test top.link_lost "$@"

# the error line(s) of FILE: the first says the link was lost
check_err() { # FILE
    local n
    n=$(wc -l <"$1")
    [ "$n" = 1 ] || { [ "$n" = 2 ] && grep -q "left frozen" "$1"; } || { cat "$1"; fail "$2: not one error line"; }
    head -1 "$1" | grep -qE '^mcuprof: error: top: the link was lost at interval [0-9]+: 127\.0\.0\.1:[0-9]+: ' ||
        { cat "$1"; fail "$2: no line saying the link was lost"; }
    echo "$2: $(cat "$1")"
}

top_qemu "$elf" "$work"
rc=0
"$MCUPROF" top --gdb "$gdb" --elf "$elf" --batch --interval 0.5 -n 2 >"$work/out.txt" 2>"$work/err.txt" &
top_pid=$!
for _ in $(seq 100); do [ "$(grep -c '^interval ' "$work/out.txt")" -ge 2 ] && break; sleep 0.1; done
stop_qemu
wait "$top_pid" || rc=$?
[ "$rc" = 1 ] || { cat "$work/err.txt"; fail "batch: exit status $rc, not 1"; }
[ "$(grep -c '^interval ' "$work/out.txt")" -ge 2 ] || fail "batch: no block before the loss"
check_err "$work/err.txt" batch

top_qemu "$elf" "$work"
tty_start "$work" "stty -a >stty.before; '$MCUPROF' top --gdb $gdb --elf '$elf' --interval 0.5 2>top.err; echo rc=\$? >rc.txt; stty -a >stty.after"
tty_wait 'interval [2-9] ' 15 || { echo "$screen"; fail "tty: no second interval on the screen"; }
stop_qemu
tty_wait 'LINK LOST: ' 10 || { echo "$screen"; fail "tty: the screen does not say the link is lost"; }
grep 'LINK LOST' <<<"$screen"
for _ in $(seq 100); do [ -s "$work/rc.txt" ] && [ -s "$work/stty.after" ] && break; sleep 0.1; done
[ "$(cat "$work/rc.txt")" = rc=1 ] || fail "tty: $(cat "$work/rc.txt"), not 1"
cmp -s "$work/stty.before" "$work/stty.after" || { diff "$work/stty.before" "$work/stty.after"; fail "tty: the terminal's settings changed"; }
screen=$(tty_screen)
grep -qE '%SELF|LINK LOST' <<<"$screen" && { echo "$screen"; fail "tty: a line of top is left on the shell's screen"; }
check_err "$work/top.err" tty
echo "ok   top.link_lost"
