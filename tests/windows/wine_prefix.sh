#!/usr/bin/env bash
# wine_prefix.sh - make the private Wine prefix the Windows tests run in
# ($WINEPREFIX), once, and check that the Windows build starts in it.
set -euo pipefail
if [ ! -f "$WINEPREFIX/system.reg" ]; then
    mkdir -p "$WINEPREFIX"
    # wineboot writes the registry and the Windows folders; no window
    "$WINE" wineboot --init >/dev/null 2>&1 || true
    # the registry is written when the server ends
    server=$(command -v wineserver || echo /usr/lib/wine/wineserver64)
    "$server" -w || true
fi
[ -f "$WINEPREFIX/system.reg" ] || { echo "wine_prefix: wineboot made no prefix in $WINEPREFIX"; exit 1; }
out=$("$WINE" "$MCUPROF_EXE" --version 2>&1) || { echo "$out"; echo "wine_prefix: $MCUPROF_EXE --version failed"; exit 1; }
echo "$out"
