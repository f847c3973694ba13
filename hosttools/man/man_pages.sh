#!/bin/sh
# man_pages.sh TOOL OUTDIR - write the man pages of the mcuprof binary TOOL
# into OUTDIR: mcuprof.1 from `TOOL --help`, and mcuprof-CMD.1 from
# `TOOL CMD --help` for every command `TOOL --help` lists, so a new command
# gets its page without an edit here and no page can say other than --help.
# help_to_man.awk (next to this script) turns each help text into roff.
# Run by the build after the tool is linked (hosttools/CMakeLists.txt).
set -eu
tool=$1
out=$2
awkf=$(dirname "$0")/help_to_man.awk
version=$("$tool" --version)
mkdir -p "$out"
# written beside OUTDIR (whose every page gets installed), then moved in
tmp=$(mktemp -d "$out.new.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$tool" --help > "$tmp/help"
# "  NAME       summary", a summary's later lines indented further
awk '/^Commands:/ { c = 1; next }
     c && /^$/ { exit }
     c && /^  [^ ]/ { if (n) print name "\t" s; name = $1; s = $0; sub(/^  [^ ]+ +/, "", s); n = 1; next }
     c { t = $0; sub(/^ +/, "", t); s = s " " t }
     END { if (n) print name "\t" s }' "$tmp/help" > "$tmp/commands"
if [ ! -s "$tmp/commands" ]; then
    echo "man_pages.sh: $tool --help lists no commands (no 'Commands:' section)" >&2
    exit 1
fi

pages=
while IFS='	' read -r cmd summary; do
    pages="$pages${pages:+, }mcuprof-$cmd(1)"
done < "$tmp/commands"

while IFS='	' read -r cmd summary; do
    "$tool" "$cmd" --help > "$tmp/help-$cmd" || { echo "man_pages.sh: '$tool $cmd --help' failed" >&2; exit 1; }
    awk -v page="mcuprof-$cmd" -v summary="$summary" -v version="$version" \
        -v seealso="mcuprof(1), mcuprof help $cmd" -f "$awkf" "$tmp/help-$cmd" > "$tmp/mcuprof-$cmd.1"
done < "$tmp/commands"
awk -v page=mcuprof -v summary="read, convert and report the profiles of bare-metal firmware" \
    -v version="$version" -v seealso="$pages, gprof(1)" -f "$awkf" "$tmp/help" > "$tmp/mcuprof.1"

# the pages of commands that are gone go too
rm -f "$out"/mcuprof.1 "$out"/mcuprof-*.1
mv "$tmp"/*.1 "$out"/
