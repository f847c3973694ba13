#!/usr/bin/env bash
# no_merge_markers.sh [REPO] - no file under version control holds a merge
# conflict's markers (a line starting with 7 '<', '>' or '=' characters
# followed by a space or the line's end): a conflict resolved by hand and
# committed half-done shows both versions to the reader. Prints each as
# FILE:LINE and exits 1 when there is one.
set -euo pipefail
repo=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/../..}" && pwd)
cd "$repo"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    list() { git ls-files -z; }
else
    list() { find . -path ./build -prune -o -type f -print0; }
fi
found=$(list | xargs -0 grep -nIE '^(<{7}|>{7})( |$)|^={7}$' -- 2>/dev/null || true)
if [ -n "$found" ]; then
    printf '%s\n' "$found" | cut -d: -f1,2 | sed 's/$/: merge conflict marker/'
    exit 1
fi
echo "no merge conflict markers"
