#!/usr/bin/env bash
# outputs.sh WORKDIR - where `mcuprof convert` writes, checked byte for
# byte: an output that is not a regular file is written in place, never
# replaced (`-o /dev/stdout >> log` appends to the log; /dev/fd/N,
# /proc/self/fd/N, a link to /dev/stdout, a pipe, a FIFO, /dev/null);
# a terminal is refused binary bytes; several outputs are all or nothing
# (a full device or a missing directory on the way replaces none); and
# the ELF checks' messages (a missing build-id in `info --elf`, an ELF
# whose __mcuprof_end lies below __mcuprof_start, with and without
# --force).
# Environment: MCUPROF, MAKE_IMAGE; ARM_GCC (optional: the ELF cases are
# skipped without it, and say so).
set -euo pipefail
work=$1
fail() { echo "outputs: FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$MAKE_IMAGE" img.img 0x20000000
"$MCUPROF" convert img.img -o ref.gmon
"$MCUPROF" convert img.img --format json -o ref.json
[ "$(head -c 4 ref.gmon)" = gmon ] || fail "reference gmon.out"

# expect_fail NAME MESSAGE -- ARGS: exit 1 and exactly one line, MESSAGE
expect_fail() {
    local name=$1 msg=$2 rc=0
    shift 3
    "$MCUPROF" "$@" 2>err.txt || rc=$?
    [ "$rc" = 1 ] || fail "$name: exit $rc, expected 1 ($(cat err.txt))"
    [ "$(cat err.txt)" = "mcuprof: error: $msg" ] || fail "$name: message '$(cat err.txt)', expected '$msg'"
}
# appended NAME LOG: LOG holds its first line, then the gmon.out, and is
# the file it was (same inode: appended to, not replaced)
appended() {
    { echo "log line"; cat ref.gmon; } | cmp -s - "$2" || fail "$1: $2 is not its line followed by the gmon.out"
    [ "$(stat -c %i "$2")" = "$3" ] || fail "$1: $2 was replaced by another file"
}
new_log() { echo "log line" >"$1"; stat -c %i "$1"; }

# The shell's redirections, named in every way that leads to descriptor 1 or 3
ino=$(new_log log1.txt)
"$MCUPROF" convert img.img -o /dev/stdout >>log1.txt
appended "/dev/stdout >>" log1.txt "$ino"
ino=$(new_log log2.txt)
"$MCUPROF" convert img.img -o - >>log2.txt
appended "- >>" log2.txt "$ino"
ino=$(new_log log3.txt)
"$MCUPROF" convert img.img -o /dev/fd/3 3>>log3.txt
appended "/dev/fd/3 3>>" log3.txt "$ino"
ino=$(new_log log4.txt)
"$MCUPROF" convert img.img -o /proc/self/fd/3 3>>log4.txt
appended "/proc/self/fd/3 3>>" log4.txt "$ino"
ln -s /dev/stdout to_stdout
ino=$(new_log log5.txt)
"$MCUPROF" convert img.img -o to_stdout >>log5.txt
appended "a link to /dev/stdout" log5.txt "$ino"
[ -L to_stdout ] && [ "$(readlink to_stdout)" = /dev/stdout ] || fail "the link to /dev/stdout was replaced"
# `>` truncated it: the output alone, written through the descriptor
echo "old content" >trunc.gmon
"$MCUPROF" convert img.img -o /dev/stdout >trunc.gmon
cmp -s trunc.gmon ref.gmon || fail "/dev/stdout >: not the gmon.out"
# a pipe
"$MCUPROF" convert img.img --format json -o - | cat >piped.json
cmp -s piped.json ref.json || fail "-o - into a pipe: not the JSON"
# a FIFO: refused at once while no process reads it (not waited for),
# written through it once one does, and still a FIFO
mkfifo fifo
expect_fail "fifo without reader" "fifo: is a FIFO that no process reads: start its reader first" -- \
    convert img.img -o fifo
cat fifo >from_fifo.gmon &
reader=$!
# the reader counts once it is in open(): until then the same refusal
for try in $(seq 100); do
    ! "$MCUPROF" convert img.img -o fifo 2>err.txt || break
    grep -qx "mcuprof: error: fifo: is a FIFO that no process reads: start its reader first" err.txt ||
        fail "FIFO: $(cat err.txt)"
    [ "$try" != 100 ] || fail "FIFO: its reader never opened it"
    sleep 0.05
done
wait $reader
cmp -s from_fifo.gmon ref.gmon || fail "FIFO: the reader did not get the gmon.out"
[ -p fifo ] || fail "the FIFO was replaced"
# a character device
"$MCUPROF" convert img.img -o /dev/null
[ -c /dev/null ] || fail "/dev/null was replaced"
# descriptors that cannot take it
expect_fail "stdin" "/dev/stdin: names descriptor 0, which is open for reading only" -- \
    convert img.img -o /dev/stdin </dev/null
expect_fail "closed" "/dev/fd/7: names descriptor 7, which is not open" -- convert img.img -o /dev/fd/7
expect_fail "input" "/dev/fd/3: is an input of this command: refusing to overwrite it" -- \
    convert img.img -o /dev/fd/3 3>>img.img
cmp -s img.img <("$MAKE_IMAGE" /dev/stdout 0x20000000) || fail "the input was changed"
expect_fail "directory" ".: is a directory: refusing to write the output to it" -- convert img.img -o .

# A terminal (script(1) gives a pseudo-terminal): gmon.out's version word
# 1 at offset 4 is refused before a byte is written; the JSON is text.
if command -v script >/dev/null; then
    rc=0
    script -qec "'$MCUPROF' convert img.img -o /dev/stdout 2>tty_err.txt" /dev/null >tty_out.txt || rc=$?
    [ "$rc" = 1 ] || fail "terminal: exit $rc, expected 1"
    [ ! -s tty_out.txt ] || fail "terminal: bytes reached it: $(od -c tty_out.txt | head -2)"
    [ "$(cat tty_err.txt)" = "mcuprof: error: /dev/stdout: is a terminal, and the output holds byte 0x01 at offset 4, which a terminal acts on: write it to a file or a pipe" ] ||
        fail "terminal: message '$(cat tty_err.txt)'"
    script -qec "'$MCUPROF' convert img.img --format json -o - 2>tty_err.txt" /dev/null >tty_json.txt
    tr -d '\r' <tty_json.txt | cmp -s - ref.json || fail "terminal: the JSON is not as written to a file"
    [ "$(cat tty_err.txt)" = "mcuprof: wrote standard output (json): 65,006 samples, 2 arcs, nothing lost" ] ||
        fail "terminal: stderr '$(cat tty_err.txt)'"
else
    echo "outputs: script(1) missing (util-linux): terminal cases skipped"
fi

# Several outputs: all or nothing. The second fails while being put in
# place (a full device) or staged (no such directory): the first, an
# existing file, keeps its old bytes, and no temporary file is left.
echo "old gmon" >keep.gmon
expect_fail "full" "/dev/full: write error after 0 bytes: No space left on device; no other output was written" -- \
    convert img.img --format gnu:keep.gmon,json:/dev/full
[ "$(cat keep.gmon)" = "old gmon" ] || fail "full: keep.gmon was replaced"
rc=0
"$MCUPROF" convert img.img --format gnu:keep.gmon --format json:nodir/out.json 2>err.txt || rc=$?
[ "$rc" = 1 ] && grep -q "^mcuprof: error: nodir/out.json: cannot create temporary output nodir/out.json.tmp.*: No such file or directory$" err.txt &&
    [ "$(wc -l <err.txt)" = 1 ] || fail "nodir: exit $rc, $(cat err.txt)"
[ "$(cat keep.gmon)" = "old gmon" ] || fail "nodir: keep.gmon was replaced"
# both ready: both written, the stream (log) appended to
ino=$(new_log log6.txt)
"$MCUPROF" convert img.img --format gnu:/dev/stdout,json:keep.json >>log6.txt
appended "two outputs" log6.txt "$ino"
cmp -s keep.json ref.json || fail "two outputs: keep.json is not the JSON"
leftover=$(find . -name '*.tmp*')
[ -z "$leftover" ] || fail "temporary files left: $leftover"

# The ELF checks. An ARM ELF without a build-id, its __mcuprof_start/_end
# where the image lies (fits.elf) or in the wrong order (inverted.elf).
if [ -z "${ARM_GCC:-}" ] || [ "${ARM_GCC%NOTFOUND}" != "$ARM_GCC" ]; then
    echo "outputs: arm-none-eabi-gcc missing: the ELF cases skipped"
    exit 0
fi
cat >fw.S <<'EOF'
    .syntax unified
    .thumb
    .text
    .globl f1, __mcuprof_start, __mcuprof_end
    .type f1, %function
f1: bx lr
    .size f1, . - f1
    .set __mcuprof_start, START
    .set __mcuprof_end, END
EOF
size=$(stat -c %s img.img)
elf() { "$ARM_GCC" -mcpu=cortex-m3 -mthumb -nostdlib -nostartfiles -Wl,--build-id=none -Wl,-e,f1 \
        -Ttext=0x1000 -DSTART="$2" -DEND="$3" -x assembler-with-cpp fw.S -o "$1"; }
elf fits.elf 0x20000000 "(0x20000000 + $size)"
elf inverted.elf 0x20000000 0x10000000
no_id="mcuprof: warning: img.img: neither the image nor fits.elf carries a build-id: nothing shows they belong together (link with -Wl,--build-id)"
"$MCUPROF" info img.img --elf fits.elf >info.txt 2>err.txt
[ "$(cat err.txt)" = "$no_id" ] || fail "info --elf: stderr '$(cat err.txt)', expected the missing build-id warning once"
grep -q "^  build-id  *none$" info.txt || fail "info --elf: no 'build-id none' line"
"$MCUPROF" convert img.img --elf fits.elf -o fits.gmon 2>err.txt
[ "$(cat err.txt)" = "mcuprof: wrote fits.gmon (gnu): 65,006 samples, 2 arcs, nothing lost
$no_id" ] || fail "convert --elf: stderr '$(cat err.txt)'"
expect_fail "inverted" "inverted.elf: __mcuprof_end 0x10000000 lies below __mcuprof_start 0x20000000: no place to check img.img against" -- \
    convert img.img --elf inverted.elf -o inverted.gmon
[ ! -e inverted.gmon ] || fail "inverted: an output was written"
"$MCUPROF" convert img.img --elf inverted.elf -o inverted.gmon --force 2>err.txt
grep -qx "mcuprof: warning: inverted.elf: __mcuprof_end 0x10000000 lies below __mcuprof_start 0x20000000: no place to check the image against (--force: converted anyway)" err.txt ||
    fail "inverted --force: $(cat err.txt)"
cmp -s inverted.gmon ref.gmon || fail "inverted --force: not the gmon.out"
echo "outputs: all cases passed"
