# expect_arcs.sh - sourced by the format tests that read the call counts
# back from their output (callgrind.sh, dot.sh). Needs their fail().
#
# expect_arcs TABLE NOUN: every "EXPECT arc A B COUNT" line of expect.txt
# (what the demo counted itself) holds in TABLE, lines "caller callee
# count" read back from the output (no line: a count of 0), and no
# "EXPECT noarc A B" is in TABLE; adds the lines checked to $checked. NOUN
# names an arc of the format in the messages.
expect_arcs() {
    local table=$1 noun=$2 kind a b count got
    while read -r _ kind a b count; do
        case $kind in
        arc)
            got=$(awk -v a="$a" -v b="$b" '$1 == a && $2 == b { print $3 }' "$table")
            [ "${got:-0}" = "$count" ] || fail "$noun $a -> $b: ${got:-none}, expected $count"
            ;;
        noarc)
            [ -z "$(awk -v a="$a" -v b="$b" '$1 == a && $2 == b' "$table")" ] ||
                fail "$noun $a -> $b, which the demo never makes"
            ;;
        *) continue ;;
        esac
        checked=$((checked + 1))
    done <expect.txt
}
