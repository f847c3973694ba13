# lib.sh - shared by the `mcuprof top` tests (sourced): QEMU through
# tests/pull/lib.sh, and a terminal to drive top in (tmux).
#   top_test NAME BOARD FWDIR WORKDIR   the test's name, its board, the
#                             firmware's folder (fw; elf: top_split.elf in
#                             it) and a fresh WORKDIR (work)
#   top_qemu ELF WORKDIR      starts ELF (firmware/top_split.c) on $board,
#                             sets gdb=127.0.0.1:PORT
#   tty_start WORKDIR CMD     a tmux session of 120 x 40 columns running a
#                             plain bash in WORKDIR, CMD typed into it
#   tty_screen                the screen as text (capture-pane)
#   tty_wait PATTERN [S]      until the screen matches PATTERN (grep -E),
#                             within S seconds (default 10); the screen in
#                             $screen
#   tty_keys KEYS...          send-keys
# What firmware/top_split.c does, for every test that reads top's figures:
# each round 50 periods of the sampler in top_hot (which calls top_leaf 10
# times), 10 in top_outer, then 30 in top_inner which it calls, 10 in
# top_irq_work from an interrupt handler; one round = 100 periods of
# spinning plus the code between the spins, so every function of the
# round is called once a round and the rounds a second are 100 times the
# part of the time the four spins take.
: "${MCUPROF:?}"
# shellcheck source=../pull/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../pull/lib.sh"

top_test() { # NAME BOARD FWDIR WORKDIR
    test_name=$1
    board=$2
    fw=$3
    work=$4
    elf=$fw/top_split.elf
    rm -rf "$work"
    mkdir -p "$work"
}

top_qemu() { # ELF WORKDIR
    MCUPROF_QEMU_TIMEOUT=${MCUPROF_QEMU_TIMEOUT:-50}
    start_qemu "$board" "$1" "$2" "top_split: ready"
    gdb=127.0.0.1:$qemu_port
}

tty_session=
# a tmux server of its own: nothing of the user's tmux (or its config) in the way
tty_socket=mcuprof-top-$$
tmux() { command tmux -L "$tty_socket" -f /dev/null "$@"; }
tty_stop() {
    [ -z "$tty_session" ] || tmux kill-session -t "$tty_session" 2>/dev/null || true
    tty_session=
}
trap 'tty_stop; stop_fake; stop_qemu' EXIT

tty_start() { # WORKDIR CMD
    command -v tmux >/dev/null || { echo "tmux is missing (Debian: tmux): skipped"; exit 77; }
    tty_session=top
    tmux new-session -d -s "$tty_session" -x 120 -y 40 -c "$1" \
        "env -i PATH=$PATH HOME=$1 TERM=xterm PS1='top-test\$ ' bash --norc --noprofile"
    tty_wait 'top-test\$' 10 || fail "the shell never started"
    tmux send-keys -t "$tty_session" "$2" Enter
}

tty_screen() { tmux capture-pane -t "$tty_session" -p; }

tty_wait() { # PATTERN [SECONDS]
    local deadline=$((SECONDS + ${2:-10}))
    while :; do
        screen=$(tty_screen)
        grep -qE "$1" <<<"$screen" && return 0
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.1
    done
}

tty_keys() { tmux send-keys -t "$tty_session" "$@"; }

# FIELD of the header line HEADER ("interval 3 time ... samples 10012 ...").
field() { awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' <<<"$1"; }

# within X LO HI: LO <= X <= HI (decimals)
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }
