#!/usr/bin/env bash
# lto_runtime.sh PREFIX FWDIR ELF... - firmware built with -flto (given to
# compile and link): the firmware's own code calls the hook (main and more:
# the code GCC makes at link took -pg from the link command; the exact
# counts are check_firmware.sh's), and no function of the runtime does (its objects are compiled
# with -fno-lto, so the link's -pg never reaches them: a runtime that calls
# its own hook recurses). Each ELF's runtime objects are read from
# FWDIR/CMakeFiles/<elf>_mcuprof_runtime.dir (weak defaults left out: the
# firmware may define its own, mcuprof_sample_isr_chain).
set -euo pipefail
prefix=$1
dir=$2
shift 2
case $prefix in
arm-none-eabi) hook=__gnu_mcount_nc ;;
*) hook=_mcount ;;
esac
bad=0
for name in "$@"; do
    elf=$dir/$name
    # functions whose code calls the hook (bl/jal/call <hook>)
    callers=$("$prefix-objdump" -d "$elf" |
        awk -v h="<$hook>" '/^[0-9a-f]+ <[^>]+>:$/ { fn = substr($2, 2, length($2) - 3) }
                            index($0, h) && !/^[0-9a-f]+ </ { print fn }' | sort -u)
    # every function the runtime's objects define
    runtime=$(find "$dir/CMakeFiles/${name}_mcuprof_runtime.dir" -name '*.obj' -exec "$prefix-nm" --defined-only {} + |
        awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u)
    [ -n "$runtime" ] || { echo "FAIL $name: no runtime objects found"; bad=1; continue; }
    n=$(grep -c . <<<"$callers" || true)
    both=$(comm -12 <(echo "$callers") <(echo "$runtime"))
    if [ -n "$both" ]; then
        echo "FAIL $name: runtime functions call $hook: $(echo $both)"
        bad=1
    elif ! grep -qx main <<<"$callers" || [ "$n" -lt 3 ]; then
        echo "FAIL $name: only $n functions call $hook ($(echo $callers)): -pg did not reach the code made at link"
        bad=1
    else
        echo "ok   $name: $n functions call $hook, none of the runtime's $(wc -l <<<"$runtime")"
    fi
done
exit $bad
