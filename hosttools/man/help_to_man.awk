# help_to_man.awk - one man page (roff, man macros) from the text a command
# prints for --help, so the page says exactly what --help says.
#   awk -v page=mcuprof-pull -v summary="..." -v version="mcuprof 0.1.0" \
#       -v seealso="mcuprof(1), ..." -f help_to_man.awk < help.txt
# The help text is read in blocks (separated by blank lines):
#   "Usage: ..."            SYNOPSIS, line by line
#   "Exit status..."        EXIT STATUS
#   a block of options      OPTIONS: a tagged paragraph per option (a line
#     (its first line       "  -x, --long ARG  text"), its other lines
#     starts with -)        filled; after a line that ends in ':', each line
#                           is a row of its own (the --format list)
#   anything else           DESCRIPTION: lines at the margin filled; indented
#                           "  word   text" rows a tagged list; other indented
#                           lines kept as they are
# Text is escaped for roff: every '-' is \- (a minus, as typed, never a
# hyphen), '\' is \e, and a line never starts with '.' or '\''.

function esc(s) {
    gsub(/\\/, "\\e", s)
    gsub(/-/, "\\-", s)
    return s
}
function line(s) {
    if (s ~ /^[.']/)
        s = "\\&" s
    return s "\n"
}
# an option's first line: "  -x, --long" or "      --long" (no {m,n}
# in the patterns: mawk, Debian's default awk, has none)
function is_option(s) {
    return match(s, /^ +-/) && RLENGTH <= 9
}
function strip(s) {
    sub(/^[ \t]+/, "", s)
    sub(/[ \t]+$/, "", s)
    return s
}
# an option's tag: option words (starting with '-', maybe ending in ',')
# in bold, each followed by its argument word (capitals: FILE, F[:FILE],
# HOST:PORT) in italics; the rest of the line is the description
function option_entry(s,    n, w, i, tag, rest, sep) {
    s = strip(s)
    n = split(s, w, / /)
    tag = ""
    for (i = 1; i <= n; i++) {
        if (w[i] ~ /^-/) {
            sep = (w[i] ~ /,$/) ? "," : ""
            sub(/,$/, "", w[i])
            tag = tag (tag == "" ? "" : " ") "\\fB" esc(w[i]) "\\fR" sep
        } else if (w[i] ~ /^[A-Z][A-Z0-9_:%|\[\].]*$/ && w[i - 1] ~ /^-/ && w[i - 1] !~ /,$/) {
            tag = tag " \\fI" esc(w[i]) "\\fR"
        } else
            break
    }
    rest = ""
    for (; i <= n; i++)
        if (w[i] != "")
            rest = rest (rest == "" ? "" : " ") w[i]
    opts = opts ".TP\n" line(tag)
    if (rest != "")
        opts = opts line(esc(rest))
    rows = (rest ~ /:$/)
}
function option_block(    i, l) {
    rows = 0
    for (i = 1; i <= nb; i++) {
        l = block[i]
        if (is_option(l))
            option_entry(l)
        else if (rows && strip(l) ~ /^[a-z][a-z-]* /) {
            # a row "NAME  text": the name in bold
            l = strip(l)
            w = l
            sub(/ .*/, "", w)
            sub(/^[^ ]+ +/, "", l)
            opts = opts ".br\n" line("\\fB" esc(w) "\\fR " esc(l))
        } else {
            if (rows)
                opts = opts ".br\n"
            opts = opts line(esc(strip(l)))
            if (strip(l) ~ /:$/)
                rows = 1
        }
    }
}
function prose_block(    i, l, verbatim, listing) {
    desc = desc ".PP\n"
    verbatim = 0
    listing = 0
    for (i = 1; i <= nb; i++) {
        l = block[i]
        if (l ~ /^  ?[ ]?[a-z][a-z-]*  +[^ ]/) {
            # "  word   text": a tagged row; deeper lines continue it
            if (verbatim) { desc = desc ".fi\n"; verbatim = 0 }
            l = strip(l)
            w = l
            sub(/ .*/, "", w)
            sub(/^[^ ]+ +/, "", l)
            desc = desc ".TP\n" line("\\fB" esc(w) "\\fR") line(esc(l))
            listing = 1
        } else if (l ~ /^ / && listing && l ~ /^    +[^ ]/) {
            desc = desc line(esc(strip(l)))
        } else if (l ~ /^ /) {
            if (listing) { desc = desc ".PP\n"; listing = 0 }
            if (!verbatim) { desc = desc ".nf\n"; verbatim = 1 }
            desc = desc line(esc(l))
        } else {
            if (verbatim) { desc = desc ".fi\n"; verbatim = 0 }
            if (listing) { desc = desc ".PP\n"; listing = 0 }
            desc = desc line(esc(l))
        }
    }
    if (verbatim)
        desc = desc ".fi\n"
}
function flush(    i, l) {
    if (nb == 0)
        return
    if (block[1] ~ /^Usage: /) {
        for (i = 1; i <= nb; i++) {
            l = block[i]
            sub(/^(Usage:)? +/, "", l)
            synopsis = synopsis line(esc(l))
        }
    } else if (block[1] ~ /^Exit status/) {
        for (i = 1; i <= nb; i++)
            exitst = exitst line(esc(strip(block[i])))
    } else if (is_option(block[1]))
        option_block()
    else
        prose_block()
    nb = 0
}
/^[ \t]*$/ { flush(); next }
{ block[++nb] = $0 }
END {
    flush()
    title = toupper(page)
    printf "%s", ".TH " esc(title) " 1 \"\" \"" esc(version) "\" \"User Commands\"\n"
    # no hyphenation: the text is full of identifiers (freeze_request)
    printf "%s", ".nh\n"
    printf "%s", ".SH NAME\n" esc(page) " \\- " esc(summary) "\n"
    printf "%s", ".SH SYNOPSIS\n.nf\n" synopsis ".fi\n"
    if (desc != "")
        printf "%s", ".SH DESCRIPTION\n" desc
    if (opts != "")
        printf "%s", ".SH OPTIONS\n" opts
    if (exitst != "")
        printf "%s", ".SH EXIT STATUS\n" exitst
    if (seealso != "")
        printf "%s", ".SH SEE ALSO\n" esc(seealso) "\n"
}
