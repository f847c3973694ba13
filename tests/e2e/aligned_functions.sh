#!/usr/bin/env bash
# aligned_functions.sh OBJDUMP ELF... - every profiled function (one that
# calls the -pg hook, __gnu_mcount_nc or _mcount) and every .cold part of
# one starts on a 16-byte boundary: a histogram bin of its own. Read from
# objdump's disassembly, independently of `mcuprof check`. Fails when a
# firmware has none (nothing to check is no pass).
set -euo pipefail
objdump=$1
shift
bad=0
for elf in "$@"; do
    "$objdump" -d "$elf" | awk -v elf="$(basename "$elf")" '
        function done_func() {
            if (name != "" && (calls || name ~ /\.cold$/)) {
                n++
                if (substr(addr, length(addr)) != "0") {
                    printf "FAIL %s: %s starts at 0x%s, not on a 16-byte boundary\n", elf, name, addr
                    bad++
                }
            }
            name = ""
        }
        /^[0-9a-f]+ <[^>]+>:$/ {
            done_func()
            addr = $1
            name = substr($0, index($0, "<") + 1)
            sub(/>:$/, "", name)
            calls = 0
            next
        }
        /<(__gnu_mcount_nc|_mcount)>/ { calls = 1 }
        END {
            done_func()
            if (n == 0) {
                printf "FAIL %s: no function calls the hook\n", elf
                exit 1
            }
            printf "%s   %s: %d profiled functions, %d not on a 16-byte boundary\n", bad ? "FAIL" : "ok", elf, n, bad
            exit bad ? 1 : 0
        }' || bad=1
done
exit $bad
