#!/usr/bin/env bash
# run.sh BOARD ELF [options] [-- extra QEMU arguments]
#
# Run firmware under QEMU for a board (its manifest boards/BOARD/qemu.conf,
# read by boards/boards.sh) and exit with
# the firmware's exit code (semihosting SYS_EXIT_EXTENDED). The console UART
# goes to stdout.
#
# options:
#   --icount-shift N   deterministic time: -icount shift=N,align=off,sleep=off,
#                      one instruction = 2^N ns of virtual time (default: the
#                      board's QEMU_ICOUNT_SHIFT, which models its core clock,
#                      so a timer-driven sampler takes the samples it would
#                      on the part; 0 runs 1 G instructions a second)
#   --workdir DIR      run QEMU in DIR, where semihosting opens its files
#                      (default: the current directory)
#   --no-semihosting   run without semihosting (BKPT 0xAB or the RISC-V
#                      semihosting ebreak then traps)
#   --timeout S        stop QEMU after S seconds (default 60) and exit 124
#   --print-command    print the QEMU command line instead of running it
#   -h, --help         this text
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
me=run.sh
# shellcheck source=../../boards/boards.sh
. "$here/../../boards/boards.sh"

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

die() {
    echo "$me: $*" >&2
    exit 2
}

[ $# -ge 1 ] || usage
case $1 in -h | --help) usage ;; esac
[ $# -ge 2 ] || usage
board=$1
elf=$2
shift 2

icount_shift=
workdir=.
semihosting=1
timeout=60
print_only=0
extra=()
while [ $# -gt 0 ]; do
    case $1 in
    --icount-shift)
        [ $# -ge 2 ] || die "--icount-shift needs a value"
        icount_shift=$2
        shift 2
        ;;
    --workdir)
        [ $# -ge 2 ] || die "--workdir needs a directory"
        workdir=$2
        shift 2
        ;;
    --no-semihosting)
        semihosting=0
        shift
        ;;
    --timeout)
        [ $# -ge 2 ] || die "--timeout needs a number of seconds"
        timeout=$2
        shift 2
        ;;
    --print-command)
        print_only=1
        shift
        ;;
    -h | --help) usage ;;
    --)
        shift
        extra=("$@")
        break
        ;;
    *) die "unknown option '$1'" ;;
    esac
done

case $icount_shift in *[!0-9]*) die "--icount-shift: not a number: $icount_shift" ;; esac
case $timeout in '' | *[!0-9]*) die "--timeout: not a number of seconds: $timeout" ;; esac

mcuprof_board_load "$board" || exit 2
conf=$BOARD_DIR/qemu.conf
[ -f "$elf" ] || die "no such firmware: $elf"
[ -d "$workdir" ] || die "no such directory: $workdir"

[ -n "$QEMU_MACHINE" ] || die "$conf does not set QEMU_MACHINE"
[ -n "$QEMU_BIN" ] || die "$conf (or its arch.conf) does not set QEMU_BIN"
if [ -z "$icount_shift" ]; then
    icount_shift=$QEMU_ICOUNT_SHIFT
    case $icount_shift in '' | *[!0-9]*) die "$conf: QEMU_ICOUNT_SHIFT is not a number: '$icount_shift'" ;; esac
fi
[ "$icount_shift" -le 10 ] || die "--icount-shift: $icount_shift is above 10 (QEMU's limit)"

elf_abs=$(cd "$(dirname "$elf")" && pwd)/$(basename "$elf")

cmd=("$QEMU_BIN" -machine "$QEMU_MACHINE")
[ -z "$QEMU_CPU" ] || cmd+=(-cpu "$QEMU_CPU")
# The console UART on stdout, no monitor on it, nothing else on stdio.
cmd+=(-nographic -monitor none -serial stdio)
cmd+=(-icount "shift=$icount_shift,align=off,sleep=off")
# shellcheck disable=SC2054 # the commas belong to QEMU's option
[ "$semihosting" = 0 ] || cmd+=(-semihosting-config enable=on,target=native)
# shellcheck disable=SC2206 # QEMU_EXTRA is a word list by design
[ -z "$QEMU_EXTRA" ] || cmd+=($QEMU_EXTRA)
cmd+=(-kernel "$elf_abs")
[ ${#extra[@]} -eq 0 ] || cmd+=("${extra[@]}")

if [ "$print_only" = 1 ]; then
    line=
    for w in "${cmd[@]}"; do
        case $w in *[!A-Za-z0-9_./=,:+-]*) w="'$w'" ;; esac
        line+="${line:+ }$w"
    done
    echo "$line"
    exit 0
fi

# QEMU runs in the background so the timeout can be enforced here: it keeps
# the firmware's own exit codes (even 124) apart from a timeout.
cd "$workdir"
"${cmd[@]}" < /dev/null &
qemu_pid=$!
trap 'kill "$qemu_pid" 2>/dev/null || true' EXIT INT TERM HUP

deadline=$((SECONDS + timeout))
timed_out=0
while kill -0 "$qemu_pid" 2>/dev/null; do
    if [ "$SECONDS" -ge "$deadline" ]; then
        timed_out=1
        # KILL, not TERM: QEMU would add its own "terminating on signal".
        # Reaped inside the braces, so bash's own "Killed" job report,
        # printed whenever it notices the death, goes to /dev/null too.
        { kill -KILL "$qemu_pid" && wait "$qemu_pid"; } 2>/dev/null || true
        break
    fi
    sleep 0.05
done
rc=0
[ "$timed_out" = 1 ] || wait "$qemu_pid" || rc=$?
trap - EXIT INT TERM HUP

if [ "$timed_out" = 1 ]; then
    echo "$me: $board: timed out after $timeout s" >&2
    exit 124
fi
exit "$rc"
