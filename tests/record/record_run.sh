#!/usr/bin/env bash
# record_run.sh ELF IDLE_ELF WORK - `mcuprof record` under QEMU on firmware that
# runs forever (probe_split.elf, mps2-an385), its run ended from outside:
#   --duration 1: the image pulled through QEMU's gdbstub: exit 0, the
#     summary says so, its samples and arcs are the image's (--image), the
#     gmon.out is whole (gprof reads it: thread_work calls leaf, and ten
#     times as often as it is called, less the calls the freeze lost)
#   QEMU killed during --duration: exit 1, one error line, no output; and
#     when the firmware had written its image (IDLE_ELF, pull_idle.elf,
#     dumps it and idles), that image kept: exit 0, a warning that says so,
#     the summary's end "QEMU was killed by SIGKILL"
#   Ctrl-C while it runs: pulled as at --duration, exit 0
#   Ctrl-C before QEMU starts (record waits on a FIFO console): exit 130,
#     no output, no QEMU
#   Ctrl-C, and another at once (during the pull): exit 0 with the output
#     whole, or 130 with none
# and after each: QEMU gone (its PID), the temporary directory empty.
# Tools from the environment: MCUPROF, GPROF; and jq.
set -euo pipefail
src_elf=$1
idle_src=$2
work=$3
test_name=record.run
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/lib.sh"
: "${GPROF:?}"

rm -rf "$work"
mkdir -p "$work/tmp"
cd "$work"
# a path of its own, so the QEMU running it is found by its command line
elf=$work/probe_split.elf
cp "$src_elf" "$elf"
export TMPDIR=$work/tmp

after() { # NAME: QEMU gone, nothing in TMPDIR
    [ -z "${qemu_pid:-}" ] || gone "$qemu_pid" || fail "$1: QEMU $qemu_pid still runs"
    ! pgrep -f -- "-kernel $elf" >/dev/null || fail "$1: a QEMU runs $elf"
    [ -z "$(ls -A tmp)" ] || fail "$1: left in TMPDIR: $(ls -A tmp)"
}
whole() { # NAME FILE: gprof and mcuprof read it
    "$GPROF" -b -q "$elf" "$2" >graph.txt || fail "$1: gprof cannot read $2"
    grep -q 'thread_work' graph.txt || fail "$1: gprof shows no thread_work"
    "$MCUPROF" info "$2" >/dev/null || fail "$1: mcuprof info cannot read $2"
}
start() { # ARGS...: record in the background (pid), its QEMU (qemu_pid)
    rc=0
    "$MCUPROF" record "$elf" "$@" >out.txt 2>err.txt &
    pid=$!
    qemu_of $pid
}
calls() { # FUNC: its calls in graph.txt (gprof's primary line)
    awk -v f="$1" '$1 ~ /^\[/ && $NF ~ /^\[/ && $(NF-1) == f { split($(NF-2), c, "+"); print c[1]; exit }' graph.txt
}

# --duration
start --duration 1 --console console.log --image rec.img
wait $pid || rc=$?
[ "$rc" = 0 ] || { cat err.txt >&2; fail "--duration: exit $rc"; }
after "--duration"
summary_fields err.txt
[[ $WHERE =~ ^mps2-an385\ under\ QEMU ]] || fail "--duration: where '$WHERE'"
[ "$ENDED" = "pulled after --duration, firmware stopped" ] || fail "--duration: ended '$ENDED'"
awk -v s="$SECONDS_RUN" 'BEGIN { exit !(s >= 1 && s < 10) }' || fail "--duration: ran $SECONDS_RUN s"
[ "$SAMPLES" = "$(image_samples rec.img)" ] || fail "--duration: samples $SAMPLES, the image $(image_samples rec.img)"
[ "$ARCS" = "$("$MCUPROF" info --json rec.img | jq .header.arcs_used)" ] || fail "--duration: arcs $ARCS"
whole "--duration" gmon.out
tw=$(calls thread_work)
leaf=$(calls leaf)
frozen=$("$MCUPROF" info --json rec.img | jq .counters.lost.lost_calls_frozen)
[ "$tw" -ge 2 ] || fail "--duration: thread_work called $tw times"
[ "$leaf" -le $((10 * tw)) ] && [ $((leaf + frozen)) -ge $((10 * tw)) ] ||
    fail "--duration: leaf $leaf calls for thread_work's $tw ($frozen calls lost frozen)"
grep -q "ready" console.log || fail "--duration: the console holds no 'ready'"
echo "ok   --duration 1: $ENDED, ran $SECONDS_RUN s, $SAMPLES samples, $ARCS arcs, $LOST; thread_work $tw, leaf $leaf; QEMU $qemu_pid gone"

# QEMU killed during --duration
rm -f gmon.out
start --duration 5 --console console.log
sleep 0.5
kill -KILL "$qemu_pid"
wait $pid || rc=$?
[ "$rc" = 1 ] || { cat err.txt >&2; fail "QEMU killed: exit $rc"; }
[ "$(wc -l <err.txt)" = 1 ] || { cat err.txt >&2; fail "QEMU killed: not one line"; }
grep -q "^mcuprof: error: $elf: QEMU was killed by SIGKILL after [0-9.]* s before the firmware wrote mcuprof.img through semihosting: nothing to profile\$" err.txt ||
    { cat err.txt >&2; fail "QEMU killed: message"; }
[ ! -e gmon.out ] || fail "QEMU killed: gmon.out written"
after "QEMU killed"
echo "ok   QEMU killed: $(cat err.txt)"

# QEMU killed after the firmware wrote its image: that image is kept
cp "$idle_src" "$work/pull_idle.elf"
rm -f gmon.out
rc=0
"$MCUPROF" record "$work/pull_idle.elf" --duration 20 --console idle.log >out.txt 2>err.txt &
pid=$!
qemu_of $pid
for i in $(seq 250); do grep -q "pull_idle: ready" idle.log && break; sleep 0.02; done
grep -q "pull_idle: ready" idle.log || fail "QEMU killed after the dump: pull_idle never ready"
kill -KILL "$qemu_pid"
wait $pid || rc=$?
[ "$rc" = 0 ] || { cat err.txt >&2; fail "QEMU killed after the dump: exit $rc"; }
grep -q "^mcuprof: warning: $work/pull_idle.elf: QEMU was killed by SIGKILL after [0-9.]* s: the profile is the image the firmware wrote before (mcuprof.img)\$" err.txt ||
    { cat err.txt >&2; fail "QEMU killed after the dump: no warning"; }
summary_fields err.txt
[ "$ENDED" = "QEMU was killed by SIGKILL" ] || fail "QEMU killed after the dump: ended '$ENDED'"
[ -s gmon.out ] && "$MCUPROF" info gmon.out >/dev/null || fail "QEMU killed after the dump: no whole gmon.out"
after "QEMU killed after the dump"
echo "ok   QEMU killed after the firmware's dump: kept, $ENDED"

# Ctrl-C while it runs
start --console console.log
sleep 1
kill -INT $pid
wait $pid || rc=$?
[ "$rc" = 0 ] || { cat err.txt >&2; fail "Ctrl-C: exit $rc"; }
summary_fields err.txt
[ "$ENDED" = "pulled at SIGINT, firmware stopped" ] || fail "Ctrl-C: ended '$ENDED'"
whole "Ctrl-C" gmon.out
after "Ctrl-C"
echo "ok   Ctrl-C while running: $ENDED; QEMU $qemu_pid gone"

# Ctrl-C before QEMU starts: record waits to open its FIFO console
rm -f gmon.out fifo
mkfifo fifo
qemu_pid=
rc=0
"$MCUPROF" record "$elf" --console fifo >out.txt 2>err.txt &
pid=$!
sleep 0.3
kill -INT $pid
wait $pid || rc=$?
[ "$rc" = 130 ] || { cat err.txt >&2; fail "Ctrl-C before QEMU: exit $rc"; }
[ ! -e gmon.out ] || fail "Ctrl-C before QEMU: gmon.out written"
after "Ctrl-C before QEMU"
echo "ok   Ctrl-C before QEMU starts: exit 130, nothing written"

# Ctrl-C twice: the second during the pull (or just after it)
rm -f gmon.out
start --console console.log
sleep 0.5
kill -INT $pid
sleep 0.02
kill -INT $pid 2>/dev/null || true
wait $pid || rc=$?
case $rc in
0) whole "Ctrl-C twice" gmon.out ;;
130) [ ! -e gmon.out ] || fail "Ctrl-C twice: exit 130 and gmon.out written" ;;
*) cat err.txt >&2; fail "Ctrl-C twice: exit $rc" ;;
esac
after "Ctrl-C twice"
echo "ok   Ctrl-C twice: exit $rc, $([ "$rc" = 0 ] && echo "gmon.out whole" || echo "nothing written"); QEMU $qemu_pid gone"
echo "$test_name: all checks passed"
