#!/usr/bin/env bash
# check_clean.sh MCUPROF DIR - `mcuprof check` on every firmware DIR/*.elf:
# each must pass with no finding at all (no error, and no warning: a
# histogram bin a profiled function shares with another is one, at -Os
# and for cold code as at -O2). Notes (code without -pg, RISC-V's mtvec)
# are allowed. The clones_*.elf firmware keeps GCC's clones on purpose
# (KEEP_CLONES): what check says of them is judged by clones.sh.
# Shared bins in lto_Os*.elf and probe_split_field.elf are allowed too: at
# -Os with -flto GCC makes the code at link, where nothing aligns it
# (docs/instrumenting.md).
# lto_link_without_pg.elf has no hook call at all (e2e.<board>.no_calls):
# there check must fail with that.
set -euo pipefail
mcuprof=$1
dir=$2
rc=0
n=0
for elf in "$dir"/*.elf; do
    case $(basename "$elf") in clones_*) continue ;; esac
    n=$((n + 1))
    if [ "$(basename "$elf")" = lto_link_without_pg.elf ]; then
        if out=$("$mcuprof" check "$elf" 2>&1) || ! grep -q ': no function calls ' <<<"$out"; then
            echo "$out"
            echo "FAIL $elf: mcuprof check does not fail with 'no function calls'"
            rc=1
        else
            echo "ok   $(basename "$elf"): no function calls the hook"
        fi
        continue
    fi
    out=$("$mcuprof" check "$elf") || { echo "$out"; echo "FAIL $elf: mcuprof check failed"; rc=1; continue; }
    findings=$out
    case $(basename "$elf") in
    lto_Os* | probe_split_field*) findings=$(grep -v ': warning: starts at 0x[0-9a-f]*, inside the [0-9]*-byte bin ' <<<"$out") ;;
    esac
    if grep -E ': (error|warning): ' <<<"$findings"; then
        echo "FAIL $elf: mcuprof check has findings (above)"
        rc=1
    else
        echo "ok   $(basename "$elf"): $(tail -n 1 <<<"$out" | sed 's/^.*: //')"
    fi
done
[ "$n" -gt 0 ] || { echo "FAIL no firmware in $dir"; exit 1; }
exit $rc
