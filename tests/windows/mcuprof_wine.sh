#!/usr/bin/env bash
# mcuprof_wine.sh ARGS... - the Windows build ($MCUPROF_EXE) under $WINE,
# standing in for the Linux tool: the pull and ctl tests run unchanged
# with MCUPROF set to this script, so the Windows build meets the same
# checks (exit status, stderr lines, files byte for byte).
exec "$WINE" "$MCUPROF_EXE" "$@"
