#!/usr/bin/env bash
# dot.sh - `mcuprof convert --format dot` on the demo's profile, rendered by
# graphviz and read back as graphviz understood it (dot -Tplain):
#   1. dot -Tsvg renders it without an error or a warning;
#   2. every arc the demo makes is an edge with exactly the demo's count,
#      the interrupt's calls come from the one <spontaneous> node, and the
#      tail call that must not appear does not;
#   3. hot_a, hot_b and hot_c show the self shares the demo's instruction
#      counts give them, within 1 point, and main's total is at least 99 %;
#   4. the functions of the is_even/is_odd recursion share one cycle box.
# Environment (tests/formats/CMakeLists.txt): MCUPROF ELF IMG WORK BOARD.
set -euo pipefail
: "${MCUPROF:?}" "${ELF:?}" "${IMG:?}" "${WORK:?}" "${BOARD:?}"

fail() {
    echo "dot: $BOARD: $*" >&2
    exit 1
}
# shellcheck source=expect_arcs.sh
. "$(dirname "${BASH_SOURCE[0]}")/expect_arcs.sh"

rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
run=$(dirname "$IMG")
cat "$run/uart.log" "$run/stderr.log" | grep '^EXPECT ' >expect.txt || fail "no EXPECT lines in $run"

# Without the ELF there are no names: refused, nothing written.
if "$MCUPROF" convert "$IMG" --format dot 2>noelf.err; then
    fail "--format dot without --elf was accepted"
fi
[ ! -e mcuprof.dot ] || fail "a refused convert left mcuprof.dot"
grep -q -- '--elf' noelf.err || fail "the refusal does not ask for --elf: $(cat noelf.err)"

"$MCUPROF" convert "$IMG" --elf "$ELF" --format dot 2>convert.err || fail "convert failed: $(cat convert.err)"
[ -s mcuprof.dot ] || fail "no mcuprof.dot written (the format's default file)"

# 1. graphviz renders it, silently.
dot -Tsvg mcuprof.dot -o demo.svg 2>dot.err || fail "dot -Tsvg failed: $(head -3 dot.err)"
[ ! -s dot.err ] || fail "dot -Tsvg warned: $(head -3 dot.err)"
grep -q '<svg' demo.svg || fail "dot -Tsvg wrote no SVG"
dot -Tplain mcuprof.dot >demo.plain 2>>dot.err || fail "dot -Tplain failed"

# The nodes as graphviz read them: "id name self total" (the label's lines).
awk '$1 == "node" && match($0, /"[^"]*"/) {
        n = split(substr($0, RSTART + 1, RLENGTH - 2), l, /\\n/)
        self = total = ""
        for (i = 2; i <= n; i++) {
            if (l[i] ~ /^self /) { split(l[i], w, " "); self = w[2] }
            if (l[i] ~ /^total /) { split(l[i], w, " "); total = w[2] }
        }
        print $2, l[1], self, total
    }' demo.plain >nodes.txt
# The edges: "caller callee label", by name.
awk 'FNR == NR { name[$1] = $2; next }
     $1 == "edge" { np = $4; lab = (NF > 4 + 2 * np + 2) ? $(5 + 2 * np) : ""; print name[$2], name[$3], lab }' \
    nodes.txt demo.plain | sort >edges.txt
[ "$(wc -l <edges.txt)" -ge 15 ] || fail "only $(wc -l <edges.txt) edges"

# 2. Exact counts.
checked=0
expect_arcs edges.txt edge
[ "$checked" -ge 15 ] || fail "only $checked arcs checked"
echo "ok   $checked arcs with exactly the demo's counts"
# The sampler's ticks: every one called mcuprof_sample_isr_chain, from
# the interrupt handler, or from <spontaneous> where the handler's code is
# no function (an M3's vector calls it straight from exception entry).
ticks=$(awk '$2 == "arc" && $3 == "mcuprof_sample_isr_chain" && $4 == "shared_mid" { print $5 }' expect.txt)
got=$(awk '$2 == "mcuprof_sample_isr_chain" { n += $3 } END { print n + 0 }' edges.txt)
[ "$got" = "$ticks" ] || fail "calls into mcuprof_sample_isr_chain: $got, expected $ticks"
spont=$(awk '$1 == "<spontaneous>"' edges.txt | wc -l)
nodes=$(grep -c '^node spontaneous ' demo.plain || true)
[ "$nodes" = "$((spont > 0 ? 1 : 0))" ] || fail "$nodes <spontaneous> nodes for $spont edges from outside code"
echo "ok   mcuprof_sample_isr_chain called $ticks times (the sampler's ticks); $spont edges from <spontaneous>"

# 3. Shares.
grep '^EXPECT share ' expect.txt | while read -r _ _ fn want _; do
    awk -v f="$fn" -v w="$want" '$2 == f { found = 1; d = $3 - w; if (d < 0) d = -d
            if (d > 1) { printf "%s: self %s %%, expected %s %% within 1 point\n", f, $3, w; exit 1 }
            printf "ok   %s self %s %% (expected %s)\n", f, $3, w }
        END { if (!found) { print f ": no node"; exit 1 } }' nodes.txt || fail "time share of $fn"
done
awk '$2 == "main" { found = 1; if ($4 < 99) { print "main: total " $4 " %"; exit 1 }; print "ok   main total " $4 " %" }
     END { if (!found) { print "no node main"; exit 1 } }' nodes.txt || fail "main's total is not the whole run"

# 4. The mutual recursion is one cycle.
for f in is_even is_odd; do
    grep -q "label=\"$f\\\\n.*<cycle 1>" mcuprof.dot || fail "$f is not marked <cycle 1>"
done
awk '/subgraph cluster_cycle1 /, /^  }/' mcuprof.dot | grep -c 'label="is_\(even\|odd\)\\n' | grep -qx 2 ||
    fail "is_even and is_odd are not in the box of cycle 1"
echo "ok   is_even and is_odd in cycle 1"
