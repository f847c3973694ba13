#!/usr/bin/env bash
# bad_input.sh WORKDIR IMAGE HOLD_FILE - the Windows build on the paths and
# files a Windows user meets, each one clear line and a non-zero exit where
# it fails, as the Linux build says it:
#   - folders and files with spaces and non-ASCII names, given with
#     forward slashes, backslashes and a drive letter: converted, the
#     outputs byte-identical to the Linux build's, the line naming the file
#     as given;
#   - an output another program holds open (no sharing, as editors and
#     viewers do): one error naming it, the old file and no temporary left;
#     an input held so: one error naming it;
#   - a read-only output, a missing folder: the Linux build's error line;
#   - a port nobody listens on, and one where something that is not a GDB
#     server listens: the Linux build's error line.
set -euo pipefail
test_name=windows.bad_input
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work=$1 img=$2 hold=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
files=0 runs=0

# one_line FILE: FILE holds exactly one line, printed
one_line() {
    [ "$(wc -l <"$1")" = 1 ] || { cat "$1"; fail "not one line on stderr"; }
    cat "$1"
}

# --- names: spaces, non-ASCII, backslashes, drive letters
dir="$work/dossier été/ünïcode ✓"
mkdir -p "$dir"
cp "$img" "$dir/prøfil é.img"
"$MCUPROF" convert "$img" -o "$work/linux.gmon" -q 2>/dev/null
win convert "$dir/prøfil é.img" -o "$dir/gmön out.gmon" 2>"$work/err" || { cat "$work/err"; fail "convert with non-ASCII names failed"; }
cmp "$work/linux.gmon" "$dir/gmön out.gmon" || fail "the non-ASCII output differs from the Linux build's"
grep -qF "wrote $dir/gmön out.gmon (gnu):" "$work/err" || { cat "$work/err"; fail "the wrote line does not name the file as given"; }
# the same file through a drive letter and backslashes (Wine's Z: is /)
wdir="Z:$(printf '%s' "$dir" | tr / '\\')"
win convert "$wdir\\prøfil é.img" -o "$wdir\\back slash.gmon" -q || fail "convert with backslashes failed"
cmp "$work/linux.gmon" "$dir/back slash.gmon" || fail "the backslash output differs"
# the default output of a format lands in the current folder, here a
# non-ASCII one
(cd "$dir" && win convert "prøfil é.img" -q) || fail "convert to the default output failed"
cmp "$work/linux.gmon" "$dir/gmon.out" || fail "the default gmon.out differs"
echo "ok   names with spaces, accents and symbols; backslashes and a drive letter"

# --- a file another program holds open
cp "$work/linux.gmon" held.gmon
cp held.gmon held.orig
"$WINE" "$hold" held.gmon 10 >hold.out &
hold_pid=$!
for _ in $(seq 50); do grep -q held hold.out 2>/dev/null && break; sleep 0.1; done
grep -q held hold.out || fail "hold_file never held the file"
rc=0
win convert "$img" -o held.gmon 2>err.held || rc=$?
[ "$rc" = 1 ] || fail "a held output: exit $rc"
line=$(one_line err.held)
case $line in *held.gmon*) ;; *) fail "the error does not name the file: $line" ;; esac
case $line in *"another program"*) ;; *) fail "the error does not say why: $line" ;; esac
cmp held.gmon held.orig || fail "the held output was changed"
[ -z "$(find . -maxdepth 1 -name '*.tmp*' -o -maxdepth 1 -name '.*mcuprof*')" ] || { ls -la; fail "a temporary file was left"; }
cp "$img" held.img
kill "$hold_pid" 2>/dev/null || true
wait "$hold_pid" 2>/dev/null || true
"$WINE" "$hold" held.img 10 >hold2.out &
hold_pid=$!
for _ in $(seq 50); do grep -q held hold2.out 2>/dev/null && break; sleep 0.1; done
rc=0
win convert held.img -o from_held.gmon 2>err.in || rc=$?
[ "$rc" = 1 ] || fail "a held input: exit $rc"
line=$(one_line err.in)
case $line in *held.img*) ;; *) fail "the error does not name the input: $line" ;; esac
[ ! -e from_held.gmon ] || fail "an output was written from a held input"
kill "$hold_pid" 2>/dev/null || true
wait "$hold_pid" 2>/dev/null || true
echo "ok   a held output and a held input"

# --- the Linux build's lines: read-only output, missing folder, ports
: >ro.gmon
chmod 444 ro.gmon
same_run readonly convert "$img" -o "$work/ro.gmon"
same_run nodir convert "$img" -o "$work/no/such/folder/gmon.out"
one_line "$work/win/readonly/stderr"
one_line "$work/win/nodir/stderr"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
same_run refused pull --gdb "127.0.0.1:$port" --address 0x20000000 --timeout 2000
one_line "$work/win/refused/stderr"
# something that answers, but not as a GDB server does
python3 - "$work/port" <<'PY' &
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(4)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
s.settimeout(30)
for _ in range(2):
    c, _ = s.accept()
    c.settimeout(10)
    # read the request first and close only after the client did: a close
    # with unread bytes is a reset, which may overtake the reply
    try:
        c.recv(4096)
        c.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\n")
        c.shutdown(socket.SHUT_WR)
        while c.recv(4096):
            pass
    except OSError:
        pass
    c.close()
PY
srv=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
same_run notgdb pull --gdb "127.0.0.1:$(cat "$work/port")" --address 0x20000000 --timeout 2000
one_line "$work/win/notgdb/stderr"
kill "$srv" 2>/dev/null || true
echo "ok   $test_name"
