#!/usr/bin/env bash
# check_links.sh [REPO] - every relative link of README.md and docs/**/*.md
# must lead to a file or directory that exists, and every #anchor to a
# heading of the Markdown file it names (GitHub's rule: lower case, spaces
# to hyphens, punctuation dropped, -1, -2 ... for repeated headings).
# Links inside fenced code blocks are not links. Prints each broken link
# as FILE:LINE: TARGET: WHY and exits 1 when there is one.
set -euo pipefail
repo=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/../..}" && pwd)
cd "$repo"

# The anchors of a Markdown file, one a line.
anchors() {
    awk '
        /^[ \t]*(```|~~~)/ { fence = !fence; next }
        fence { next }
        /^#+ / {
            h = $0
            sub(/^#+ +/, "", h); sub(/ +#* *$/, "", h)
            h = tolower(h)
            gsub(/[^a-z0-9 _-]/, "", h)
            gsub(/ /, "-", h)
            if (h in seen) { n = seen[h]++; print h "-" n } else { seen[h] = 1; print h }
        }
    ' "$1"
}

# The links of a Markdown file outside code blocks: LINE TARGET.
links() {
    awk '
        /^[ \t]*(```|~~~)/ { fence = !fence; next }
        fence { next }
        {
            line = $0
            gsub(/`[^`]*`/, "", line)
            while (match(line, /\]\([^) \t]+\)/)) {
                print NR " " substr(line, RSTART + 2, RLENGTH - 3)
                line = substr(line, RSTART + RLENGTH)
            }
        }
    ' "$1"
}

bad=0
files=(README.md)
while IFS= read -r f; do files+=("$f"); done < <(find docs -name '*.md' | sort)
for f in "${files[@]}"; do
    dir=$(dirname "$f")
    while read -r line target; do
        case $target in
        http://* | https://* | mailto:*) continue ;;
        esac
        path=${target%%#*}
        anchor=
        [[ $target == *'#'* ]] && anchor=${target#*#}
        if [ -z "$path" ]; then
            dest=$f
        else
            dest=$dir/$path
        fi
        if [ ! -e "$dest" ]; then
            echo "$f:$line: $target: no such file ($dest)"
            bad=1
            continue
        fi
        if [ -n "$anchor" ]; then
            if [ -d "$dest" ] || [[ $dest != *.md ]]; then
                echo "$f:$line: $target: an anchor into something that is not a Markdown file"
                bad=1
            elif ! anchors "$dest" | grep -qxF -- "$anchor"; then
                echo "$f:$line: $target: no heading with that anchor in $dest"
                bad=1
            fi
        fi
    done < <(links "$f")
done
[ "$bad" -eq 0 ] && echo "ok   every relative link and anchor of README.md and docs/ resolves (${#files[@]} files)"
exit "$bad"
