#!/usr/bin/env bash
# top_screen.sh BOARD FWDIR WORKDIR - `mcuprof top` on a terminal (tmux,
# 120 x 40) watching firmware/top_split.c under QEMU (lib.sh says what it
# does):
#   - the screen shows top_hot first, at its part of the round (50 %)
#     within 3 points, and says the sort;
#   - c sorts by calls (top_leaf, 10 calls a round, first), i by inclusive
#     samples (main, on every path, first), each said in the title; t
#     shows the whole run (the other column becomes the last interval's);
#     p pauses (PAUSED, no new interval) and p again goes on;
#   - a terminal made too small (40 x 8) gets one line saying so and
#     nothing else; made large again, the screen again;
#   - r asks first, r again drains: said on the screen, the run restarts;
#   - q: exit status 0, the shell's screen back (no line of top's left),
#     stty -a the same before and after, nothing on stderr;
#   - Ctrl-Z gives the terminal back as it was while top is stopped, fg
#     takes it again; Ctrl-C ends top with exit status 0, the terminal as
#     it was;
#   - on firmware without call paths: no inclusive column, and i says why
#     and leaves the sort.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
top_test top.screen "$@"
top_qemu "$elf" "$work"

# top in a script of its own: the shell's job, which Ctrl-Z stops whole
cat >"$work/top.sh" <<EOT
'$MCUPROF' top --gdb $gdb --elf "\$1" --interval 0.5 2>top.err
echo rc=\$? >rc.txt
stty -a >stty.after
EOT
tty_start "$work" "stty -a >stty.before; bash top.sh '$elf'"

# The first function row: the line after the column titles.
first_row() { awk 'f { print; exit } /%SELF/ { f = 1 }' <<<"$screen"; }
first_name() { first_row | awk '{ print $NF }'; }
say() { echo "$1: $(first_row)"; }

tty_wait 'interval [2-9] ' 15 || { echo "$screen"; fail "no second interval on the screen"; }
echo "$screen"
grep -q 'sort: self' <<<"$screen" || fail "the title does not say the sort"
grep -qE '^ *%SELF +95 % interval +%RUN +95 % interval +CALLS/S +CALLS +%INCL +95 % interval +FUNCTION' <<<"$screen" ||
    fail "not every column at 120 columns"
[ "$(first_name)" = top_hot ] || fail "sorted by self, top_hot is not first"
within "$(first_row | awk '{ print $1 }')" 47 53 || fail "top_hot not at 50 % within 3 points: $(first_row)"
grep -qE '^LOST: [0-9]+ samples? lost \([0-9]+ frozen' <<<"$screen" ||
    fail "the samples lost to the freezes are not in the header"
# the interrupt's context: 10 % within 3 standard errors (1.5 times its
# printed 95 % half-width) and a point, as the other figures
irq=$(sed -n 's/^contexts: thread [0-9.]* % .*IRQ 31 \([0-9.]*\) % \[\([0-9.]*\), \([0-9.]*\)\].*/\1 \2 \3/p' <<<"$screen")
[ -n "$irq" ] || fail "no context split (thread, IRQ 31)"
awk -v s="$irq" 'BEGIN { split(s, x, " "); exit !(10 >= x[1] - 1.5 * (x[1] - x[2]) - 1 && 10 <= x[1] + 1.5 * (x[3] - x[1]) + 1) }' ||
    fail "the interrupt's context at $irq, not 10 %"
say self

tty_keys c
tty_wait 'sort: calls' || fail "c: the title does not say calls"
tty_wait 'FUNCTION.*'$'\n'' .* top_leaf$' 3 || true
[ "$(first_name)" = top_leaf ] || { echo "$screen"; fail "sorted by calls, top_leaf is not first"; }
say calls

tty_keys i
tty_wait 'sort: inclusive' || fail "i: the title does not say inclusive"
[ "$(first_name)" = main ] || { echo "$screen"; fail "sorted by inclusive samples, main is not first"; }
say inclusive

tty_keys t
tty_wait 'rows: whole run' || fail "t: the title does not say the whole run"
grep -qE '^ *%SELF +95 % interval +%LAST ' <<<"$screen" || fail "t: the other column is not the last interval's"
tty_keys t
tty_wait 'rows: last interval' || fail "t again: not the last interval"
tty_keys s

tty_keys p
tty_wait 'PAUSED' || fail "p: not PAUSED"
n=$(grep -o 'interval [0-9]* ' <<<"$screen" | head -1)
sleep 1.2
screen=$(tty_screen)
[ "$(grep -o 'interval [0-9]* ' <<<"$screen" | head -1)" = "$n" ] || fail "paused, yet a new interval"
tty_keys p
tty_wait '^mcuprof top  interval' || fail "p again: still PAUSED"
echo "paused at $n"

tmux resize-window -t "$tty_session" -x 40 -y 8
tty_wait 'terminal 40x8 too small, needs 50x10' || { echo "$screen"; fail "too small: no message"; }
[ "$(grep -c . <<<"$screen")" = 1 ] || { echo "$screen"; fail "too small: more than the one line"; }
tmux resize-window -t "$tty_session" -x 120 -y 40
tty_wait '%SELF' || fail "large again: no screen"

tty_keys r
tty_wait 'r again drains the target' || fail "r: no question"
tty_keys r
tty_wait 'drained the target.s counts at .*: the run starts over' || { echo "$screen"; fail "r r: no drain said"; }
tty_wait 'run: [0-9]+ samples, [1-3] intervals?,' 5 || { echo "$screen"; fail "r r: the run did not start over"; }
echo "$screen" | head -8

tty_keys q
for _ in $(seq 100); do [ -s "$work/rc.txt" ] && [ -s "$work/stty.after" ] && break; sleep 0.1; done
screen=$(tty_screen)
echo "$screen" | head -5
[ "$(cat "$work/rc.txt")" = rc=0 ] || fail "q: $(cat "$work/rc.txt")"
cmp -s "$work/stty.before" "$work/stty.after" || { diff "$work/stty.before" "$work/stty.after"; fail "the terminal's settings changed"; }
tty_wait '^top-test\$ *$' 5 || { echo "$screen"; fail "q: no shell prompt"; }
grep -qE '%SELF|mcuprof top' <<<"$screen" && fail "q: a line of top is left on the shell's screen"
[ ! -s "$work/top.err" ] || { cat "$work/top.err"; fail "top wrote to stderr"; }

# top's screen gone, the shell's back, its settings as they were: after
# COMMAND (q, Ctrl-C) with exit status 0
left() { # WHAT
    for _ in $(seq 100); do [ -s "$work/rc.txt" ] && [ -s "$work/stty.after" ] && break; sleep 0.1; done
    tty_wait '^top-test\$ *$' 5 || { echo "$screen"; fail "$1: no shell prompt"; }
    [ "$(cat "$work/rc.txt")" = rc=0 ] || fail "$1: $(cat "$work/rc.txt")"
    cmp -s "$work/stty.before" "$work/stty.after" || fail "$1: the terminal's settings changed"
    grep -qE '%SELF|mcuprof top  ' <<<"$screen" && { echo "$screen"; fail "$1: a line of top is left"; }
    rm -f "$work/rc.txt" "$work/stty.after"
}
run_top() { # ELF
    rm -f "$work/rc.txt" "$work/stty.after"
    sed -i "s/127\.0\.0\.1:[0-9]*/$gdb/" "$work/top.sh" # QEMU again on another port
    tty_keys "clear; bash top.sh '$1'" Enter
    tty_wait 'interval [1-9] ' 15 || { echo "$screen"; fail "no interval on the screen"; }
}
run_top "$elf"
tty_keys C-z
# top gives the screen back, then stops (the shell may say "Stopped" on
# top's screen first: it sees the script that runs top stop)
for _ in $(seq 100); do
    screen=$(tty_screen)
    grep -q '%SELF' <<<"$screen" || break
    sleep 0.1
done
grep -q '%SELF' <<<"$screen" && { echo "$screen"; fail "Ctrl-Z: top's screen still there"; }
tty_keys "stty -a >stty.stopped; fg" Enter
tty_wait "%SELF" || { echo "$screen"; ps -eo pid,stat,cmd | grep -E "top.sh|mcuprof top" | grep -v grep; fail "fg: no screen"; }
cmp -s "$work/stty.before" "$work/stty.stopped" || fail "Ctrl-Z: the terminal's settings not given back"
tty_keys C-c
left Ctrl-C
echo "Ctrl-Z, fg, Ctrl-C: the terminal as it was"
stop_qemu

top_qemu "$fw/top_split_plain.elf" "$work"
run_top "$fw/top_split_plain.elf"
grep -q '%INCL' <<<"$screen" && fail "no paths: an inclusive column"
tty_keys i
tty_wait 'no inclusive figures: this firmware records no call paths' || { echo "$screen"; fail "i: not said"; }
grep -q 'sort: self' <<<"$screen" || fail "i without paths: the sort changed"
tty_keys q
left "q (no paths)"
echo "ok   top.screen"
