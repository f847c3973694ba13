#!/usr/bin/env bash
# check_clean.sh MCUPROF DIR - `mcuprof check` on every firmware DIR/*.elf:
# each must pass with no finding at all (no error, and no warning: a
# histogram bin a profiled function shares with another is one, at -Os
# and for cold code as at -O2). Notes (code without -pg, RISC-V's mtvec)
# are allowed. The clones_*.elf firmware keeps GCC's clones on purpose
# (KEEP_CLONES): what check says of them is judged by clones.sh.
set -euo pipefail
mcuprof=$1
dir=$2
rc=0
n=0
for elf in "$dir"/*.elf; do
    case $(basename "$elf") in clones_*) continue ;; esac
    n=$((n + 1))
    out=$("$mcuprof" check "$elf") || { echo "$out"; echo "FAIL $elf: mcuprof check failed"; rc=1; continue; }
    if grep -E ': (error|warning): ' <<<"$out"; then
        echo "FAIL $elf: mcuprof check has findings (above)"
        rc=1
    else
        echo "ok   $(basename "$elf"): $(tail -n 1 <<<"$out" | sed 's/^.*: //')"
    fi
done
[ "$n" -gt 0 ] || { echo "FAIL no firmware in $dir"; exit 1; }
exit $rc
