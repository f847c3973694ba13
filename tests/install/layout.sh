#!/usr/bin/env bash
# layout.sh BUILD WORK VERSION SRC - `cmake --install BUILD` into WORK/prefix,
# then check the tool as installed, from that prefix alone:
#   bin/mcuprof runs; `mcuprof version` prints what --version prints,
#     "mcuprof VERSION"
#   share/man/man1: mcuprof.1 and one mcuprof-CMD.1 for each command and no
#     other; each is roff groff reads without a warning, lexgrog finds its
#     NAME line (the command's summary of `mcuprof --help`), `man -l`
#     renders it, its OPTIONS are the options `mcuprof CMD --help` lists and
#     its text has the words of that --help, each as often
#   share/bash-completion/completions/mcuprof completes the commands, an
#     option of pull, a --format name, a positional choice and a file
#   share/doc/mcuprof: README.md and docs/ as in the source tree SRC
#   share/mcuprof/boards: the boards' manifests, read by the installed
#     `mcuprof record` (a change made to the installed copy shows in its
#     QEMU command line), which runs a test firmware (BUILD's e2e demo for
#     mps2-an385, when it and qemu-system-arm are there) to a gmon.out
# Needs man-db (man, lexgrog) and groff-base (ci/install-deps.sh).
set -euo pipefail

build=$1
work=$2
version=$3
src=$4

fail() {
    echo "install.layout: $*" >&2
    exit 1
}
for t in man lexgrog groff; do
    command -v $t >/dev/null || fail "$t is missing (Debian: man-db, groff-base; bash ci/install-deps.sh)"
done

rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install failed"; }
tool=$prefix/bin/mcuprof
man1=$prefix/share/man/man1

# the binary, and version == --version
[ "$("$tool" --version)" = "mcuprof $version" ] || fail "mcuprof --version says '$("$tool" --version)', not 'mcuprof $version'"
[ "$("$tool" version)" = "mcuprof $version" ] || fail "mcuprof version says '$("$tool" version)', not 'mcuprof $version'"
echo "ok   bin/mcuprof: version and --version print 'mcuprof $version'"

# the commands and their summaries, as `mcuprof --help` lists them
"$tool" --help | awk '/^Commands:/ { c = 1; next }
     c && /^$/ { exit }
     c && /^  [^ ]/ { if (n) print name "\t" s; name = $1; s = $0; sub(/^  [^ ]+ +/, "", s); n = 1; next }
     c { t = $0; sub(/^ +/, "", t); s = s " " t }
     END { if (n) print name "\t" s }' >"$work/commands"
ncmd=$(wc -l <"$work/commands")
[ "$ncmd" -ge 8 ] || fail "mcuprof --help lists $ncmd commands, expected at least 8 (check ... version)"

# the option names of an option list: the words starting with '-' at the
# start of each option line ("  -x, --long ARG  text"), sorted
option_names() {
    awk -v indent="$1" '{ match($0, /^ */) }
        RLENGTH >= 1 && RLENGTH <= indent && substr($0, RLENGTH + 1, 1) == "-" {
            for (i = 1; i <= NF && $i ~ /^-/; i++) {
                w = $i
                sub(/,$/, "", w)
                print w
                if ($i !~ /,$/)
                    break
            }
        }' | sort
}
# the words of a text, one a line, sorted
words() {
    tr -s ' ' '\n' | grep -v '^$' | sort
}
render() {
    MANWIDTH=200 MANPAGER=cat PAGER=cat man -l "$1" 2>"$work/man.err"
    [ ! -s "$work/man.err" ] || fail "man -l $1: $(head -1 "$work/man.err")"
}
check_roff() {
    groff -man -Tutf8 -ww -z "$1" 2>"$work/groff.err" || fail "groff fails on $1"
    [ ! -s "$work/groff.err" ] || fail "groff warns on $1: $(head -1 "$work/groff.err")"
}

(cd "$man1" && ls) | sort >"$work/pages"
{ echo mcuprof.1; cut -f1 "$work/commands" | sed 's/.*/mcuprof-&.1/'; } | sort >"$work/pages.want"
diff "$work/pages.want" "$work/pages" >"$work/pages.diff" || { cat "$work/pages.diff" >&2; fail "share/man/man1 holds other pages than mcuprof.1 and one per command (< wanted, > found)"; }

check_roff "$man1/mcuprof.1"
render "$man1/mcuprof.1" | grep -q "^NAME" || fail "man -l mcuprof.1 shows no NAME section"
got=$(lexgrog "$man1/mcuprof.1" 2>&1) || fail "lexgrog finds no NAME line in mcuprof.1: $got"
while IFS='	' read -r cmd summary; do
    page=$man1/mcuprof-$cmd.1
    check_roff "$page"
    got=$(lexgrog "$page" 2>&1) || fail "lexgrog finds no NAME line in $page: $got"
    [ "$got" = "$page: \"mcuprof-$cmd - $summary\"" ] || fail "lexgrog: $got; expected the summary '$summary'"
    # one rendering and one --help for both checks
    render "$page" >"$work/man-$cmd.txt"
    "$tool" "$cmd" --help >"$work/help-$cmd.txt"
    awk '/^[A-Z]/ { s = $0 } s == "OPTIONS"' "$work/man-$cmd.txt" | option_names 7 >"$work/man-$cmd"
    option_names 8 <"$work/help-$cmd.txt" >"$work/help-$cmd"
    [ -s "$work/help-$cmd" ] || fail "mcuprof $cmd --help lists no options"
    diff "$work/help-$cmd" "$work/man-$cmd" >"$work/diff-$cmd" ||
        { cat "$work/diff-$cmd" >&2; fail "mcuprof-$cmd.1's OPTIONS differ from mcuprof $cmd --help (< help, > man)"; }
    # and its text is --help's, word for word: the same words as often
    # (the order differs where the page gathers the options, and roff
    # fills the lines), the page's header, NAME, SEE ALSO and footer aside
    sed 's/^Usage://' "$work/help-$cmd.txt" | words >"$work/help-words-$cmd"
    awk '/^[A-Z]/ { s = $0; next } /^[^ ].*\(1\)$/ { next } s != "NAME" && s != "SEE ALSO"' "$work/man-$cmd.txt" |
        words >"$work/man-words-$cmd"
    diff "$work/help-words-$cmd" "$work/man-words-$cmd" >"$work/words-$cmd" ||
        { head -20 "$work/words-$cmd" >&2; fail "mcuprof-$cmd.1's text differs from mcuprof $cmd --help's (< help, > man)"; }
    echo "ok   mcuprof-$cmd.1: $(wc -l <"$work/man-$cmd") options and $(wc -l <"$work/man-words-$cmd") words, as --help"
done <"$work/commands"

# the completion, sourced into a bash with the installed tool first on PATH;
# complete WORDS... prints what it offers for the last word
comp=$prefix/share/bash-completion/completions/mcuprof
[ -f "$comp" ] || fail "no $comp"
complete_words() {
    PATH=$prefix/bin:$PATH bash -c 'source "$1"; shift
        complete -p mcuprof | grep -q -- "-F _mcuprof" || { echo "no completion for mcuprof"; exit 1; }
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _mcuprof; printf "%s\n" "${COMPREPLY[@]}"' complete "$comp" "$@"
}
expect() {
    local want=$1
    shift
    got=$(complete_words "$@" | tr '\n' ' ')
    [ "$got" = "$want " ] || fail "completing '$*' offers '$got', expected '$want'"
    echo "ok   completion: '$*' -> $want"
}
expect "$(cut -f1 "$work/commands" | tr '\n' ' ')help" mcuprof ""
expect pull mcuprof pu
expect --timeout mcuprof pull --ti
expect "folded folded-task" mcuprof pull --format fol
expect "json" mcuprof convert x -f j
expect "json" mcuprof convert x --format = js
expect "gnu,callgrind" mcuprof convert x --format gnu,cal
expect "start stop status" mcuprof ctl st
mkdir -p "$work/a b"
touch "$work/a b/fw one.elf"
[ "$(complete_words mcuprof info "$work/a b/f" | wc -l)" = 1 ] || fail "a file name with spaces is not completed as one word"
expect "$work/a b/fw one.elf" mcuprof info "$work/a b/f"
cd "$prefix/share/doc/mcuprof"
expect README.md mcuprof report x --elf READ
cd - >/dev/null

# the documentation
diff -r "$src/README.md" "$prefix/share/doc/mcuprof/README.md" >/dev/null || fail "share/doc/mcuprof/README.md is not README.md"
diff -r "$src/docs" "$prefix/share/doc/mcuprof/docs" >"$work/docs.diff" || { cat "$work/docs.diff" >&2; fail "share/doc/mcuprof/docs differs from docs/"; }
echo "ok   share/doc/mcuprof: README.md and docs/ ($(find "$src/docs" -type f | wc -l) files)"

# record, from the prefix: the installed boards (and not the source tree's)
boards=$prefix/share/mcuprof/boards
for f in qemu.conf cpu.flags memory.ld; do
    [ -f "$boards/mps2-an385/$f" ] || fail "no $boards/mps2-an385/$f"
done
[ -f "$boards/common/cortex-m/arch.conf" ] || fail "no $boards/common/cortex-m/arch.conf"
elf=$build/tests/e2e/fw-mps2-an385/demo.elf
if [ -f "$elf" ] && command -v qemu-system-arm >/dev/null; then
    sed -i 's/^QEMU_ICOUNT_SHIFT=.*/QEMU_ICOUNT_SHIFT=9/' "$boards/mps2-an385/qemu.conf"
    (unset MCUPROF_BOARDS_DIR; "$tool" record "$elf" --print-command) >"$work/record-cmd.txt" ||
        fail "mcuprof record --print-command failed"
    grep -q -- "-icount shift=9," "$work/record-cmd.txt" ||
        fail "record did not read the installed manifest: $(cat "$work/record-cmd.txt")"
    cp "$src/boards/mps2-an385/qemu.conf" "$boards/mps2-an385/qemu.conf"
    mkdir -p "$work/record"
    (cd "$work/record" && unset MCUPROF_BOARDS_DIR && "$tool" record "$elf" --console console.log >out.txt 2>err.txt) ||
        { cat "$work/record/err.txt" >&2; fail "the installed mcuprof record failed"; }
    [ -s "$work/record/gmon.out" ] || fail "the installed mcuprof record wrote no gmon.out"
    grep -q "^mcuprof: record: mps2-an385 under QEMU .*, firmware exited 0, " "$work/record/err.txt" ||
        fail "record's summary: $(cat "$work/record/err.txt")"
    echo "ok   share/mcuprof/boards: the installed mcuprof record reads them and runs $(basename "$elf") to gmon.out"
else
    echo "ok   share/mcuprof/boards: the manifests are installed (no mps2-an385 firmware or qemu-system-arm: record not run)"
fi
