# doc_commands.awk - the command lines README.md and docs/ show, read from
# their fenced code blocks; one record each, tab separated:
#   FILE  LINE  SECTION  COMMAND  COMMENT
# COMMAND with its continuation lines (a trailing backslash) joined and
# every run of blanks made one space; COMMENT is what follows " # ",
# with the comment-only lines indented under it (the text next to the
# command). Which lines are commands:
#   ```sh blocks     every line but blank and comment lines;
#   ``` blocks       lines after a "$ " prompt (a transcript: the rest is
#                    output), or, when the block's first line is one, the
#                    lines that start with a known program or "(gdb) "
#                    (a block that starts with anything else is output);
#                    indented lines starting with [ or ( continue a
#                    synopsis;
#   c, cmake, ld     none: code, not commands.
function flush() {
    if (cmd != "") {
        gsub(/[ \t]+/, " ", cmd); sub(/^ /, "", cmd); sub(/ $/, "", cmd)
        gsub(/[ \t]+/, " ", com); sub(/^ /, "", com); sub(/ $/, "", com)
        printf "%s\t%d\t%s\t%s\t%s\n", FILENAME, at, sect, cmd, com
    }
    cmd = ""; com = ""; cont = 0
}
function add(text,    i) {
    if (match(text, /[ \t]#( |$)/)) {
        com = com " " substr(text, RSTART + 2)
        text = substr(text, 1, RSTART - 1)
    }
    sub(/[ \t]+$/, "", text)
    cont = (text ~ /\\$/)
    if (cont) sub(/[ \t]*\\$/, "", text)
    cmd = cmd " " text
}
FNR == 1 { flush(); fence = 0; sect = "" }
/^[ \t]*(```|~~~)/ {
    if (!fence) {
        fence = 1; lang = $0; sub(/^[ \t]*(```|~~~)/, "", lang)
        skip = (lang ~ /^(c|cmake|ld)$/); first = 1; prompt = 0; output = 0
    }
    else { flush(); fence = 0 }
    next
}
!fence { if (/^#+ /) { sect = $0; sub(/^#+ +/, "", sect) } next }
skip { next }
{
    line = $0
    if (cont) { add(line); next }
    if (cmd != "" && line ~ /^[ \t]+#/) { t = line; sub(/^[ \t]+# ?/, "", t); com = com " " t; next }
    if (cmd != "" && lang == "" && line ~ /^[ \t]+[[(]/) { t = line; cmd = cmd " " t; next }
    flush()
    if (lang == "sh") {
        if (line ~ /^[ \t]*(#|$)/) next
    } else if (line ~ /^\$ /) {
        sub(/^\$ /, "", line); prompt = 1
    } else if (prompt || output) {
        next
    } else if (line !~ /^\(gdb\) / && line !~ /^(mcuprof|go|jq|dot|kcachegrind|callgrind_annotate|flamegraph\.pl|inferno-flamegraph|bash|cmake|qemu-system-[a-z0-9]+|[a-z0-9]+-none-eabi-[a-z]+|riscv64-unknown-elf-[a-z]+|ci\/[^ ]+) /) {
        if (first) output = 1
        first = 0
        next
    }
    first = 0
    at = FNR
    add(line)
}
END { flush() }
