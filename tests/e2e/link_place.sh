#!/usr/bin/env bash
# link_place.sh MCUPROF OBJDIR LINKER_SCRIPT - where the profile image may
# lie, on the objects of examples/user-project built without CMake
# (OBJDIR) and variants of its linker script: linker/mcuprof.ld fails the
# link of an image in flash, over a vector table, or over the stack, with
# a message naming the fix; `mcuprof check` says the same of an ELF whose
# image was placed some other way (the fragment's checks bypassed), and
# of a stack whose top the script defines only after the INCLUDE, which
# the linker cannot see yet.
set -euo pipefail
mcuprof=$1
objs=$2
script=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
linker_dir=$here/../../linker
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0
cd "$work"
ok() { echo "ok   $*"; }
no() {
    echo "FAIL $*"
    bad=1
}

link() { # link NAME SCRIPT [objects...]: 0 if it linked
    local name=$1 ld=$2
    shift 2
    arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -nostartfiles -nostdlib -T "$ld" -L"$linker_dir" \
        -Wl,--build-id "$objs"/app_*.o "$objs"/rt_*.o "$@" -lgcc -o "$name.elf" 2>"$name.err"
}
refused() { # refused NAME SCRIPT MESSAGE [objects...]: the link fails with MESSAGE
    local name=$1 ld=$2 msg=$3
    shift 3
    if link "$name" "$ld" "$@"; then
        no "$name: linked; want the fragment's '$msg'"
    elif grep -qF "$msg" "$name.err"; then
        ok "$name: the link fails: $(grep -F "$msg" "$name.err" | sed 's/^.*ld: //' | head -1)"
    else
        cat "$name.err"
        no "$name: the link fails with another error; want '$msg'"
    fi
}
found() { # found NAME PATTERN: `mcuprof check NAME.elf` fails with PATTERN (grep -E)
    local out rc=0
    out=$("$mcuprof" check "$1.elf" 2>&1) || rc=$?
    if [ "$rc" -eq 1 ] && grep -qE "$2" <<<"$out"; then
        ok "check $1.elf: $(grep -E "$2" <<<"$out" | sed 's/^[^:]*: -: //' | head -1)"
    else
        echo "$out"
        no "check $1.elf: exit $rc, want 1 and a line matching '$2'"
    fi
}
variant() { # variant OUT PYTHON-EXPRESSION-ON-s: a copy of the script, changed
    python3 -c "import sys; s = open(sys.argv[1]).read(); $2; open(sys.argv[2], 'w').write(s)" "$script" "$1"
}
# the fragment's placement without its checks: "built some other way"
bypass() { # bypass OUT SECTION-HEAD REGION
    variant "$1" "s = s.replace('    INCLUDE mcuprof.ld ', '    INCLUDE mcuprof_common.ld\n    $2 { INCLUDE mcuprof_image.ld } $3\n    /* */ ')"
}

if link plain "$script"; then
    out=$("$mcuprof" check plain.elf 2>&1) || true
    if grep -q "profile image" <<<"$out"; then
        echo "$out"
        no "the script as it is: check reports the image's place"
    else
        ok "the script as it is links, and check says nothing of the image's place"
    fi
else
    cat plain.err
    no "the script as it is does not link"
fi

# MCUPROF_RAM aliased to the code's region
variant flash.ld "s = s.replace('REGION_ALIAS(\"MCUPROF_RAM\", RAM)', 'REGION_ALIAS(\"MCUPROF_RAM\", FLASH)')"
refused flash flash.ld "mcuprof: MCUPROF_RAM is the region of the code (flash), not RAM"
bypass flash_bypass.ld ".mcuprof (NOLOAD) : ALIGN(8)" "> FLASH"
link flash_bypass flash_bypass.ld || { cat flash_bypass.err; no "flash_bypass does not link"; }
found flash_bypass "directly follows the code and initial data stored in flash"

# a vector table in RAM (startup code's __isr_vector) under the image: a
# region MCUPROF_RAM names that overlaps RAM's start
printf '__attribute__((section(".ram_vectors"), used)) unsigned __isr_vector[16];\n' >ram_vectors.c
arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -c ram_vectors.c -o ram_vectors.o
variant vectors.ld "s = s.replace('    RAM (rwx)  :', '    VTRAM (rwx) : ORIGIN = 0x20000000, LENGTH = 64K\n    RAM (rwx)  :').replace('REGION_ALIAS(\"MCUPROF_RAM\", RAM)', 'REGION_ALIAS(\"MCUPROF_RAM\", VTRAM)').replace('    .data : ALIGN(4)', '    .ram_vectors (NOLOAD) : { KEEP(*(.ram_vectors)) } > RAM\n    .data : ALIGN(4)')"
refused vectors vectors.ld "mcuprof: the profile image overlaps the vector table (__isr_vector)" ram_vectors.o
# the image at address 0, over the boot vector table and the code
bypass at0.ld ".mcuprof 0 (NOLOAD) : ALIGN(8)" ""
link at0 at0.ld || { cat at0.err; no "at0 does not link"; }
found at0 "overlaps the vector table \(0x0\.\.0x40\)"
found at0 "overlaps the bytes the firmware stores at 0x0\.\."
# in the Cortex-M peripheral region; over .data and .bss
bypass periph.ld ".mcuprof 0x40000000 (NOLOAD) : ALIGN(8)" ""
link periph periph.ld || { cat periph.err; no "periph does not link"; }
found periph "lies in the peripheral region, not RAM"
bypass on_data.ld ".mcuprof 0x20000000 (NOLOAD) : ALIGN(8)" ""
link on_data on_data.ld || { cat on_data.err; no "on_data does not link"; }
found on_data "overlaps section \.data \(0x20000000\.\."

# the stack: CMSIS's and CubeMX's symbols, defined before the INCLUDE
variant cmsis.ld "s = '__StackTop = 0x20010000;\n__StackLimit = 0x20000100;\n' + s"
refused cmsis cmsis.ld "mcuprof: the profile image overlaps the stack"
variant cubemx.ld "s = '_estack = 0x20010000;\n_Min_Stack_Size = 0xFF00;\n' + s"
refused cubemx cubemx.ld "mcuprof: the profile image overlaps the stack"
# the stack's size known, its top (_estack) assigned after the INCLUDE:
# the linker cannot see it yet, check reads the initial SP from the vectors
variant late_top.ld "s = '_Min_Stack_Size = 0xFF00;\n' + s"
link late_top late_top.ld || { cat late_top.err; no "late_top does not link"; }
found late_top "overlaps the stack \(0x20000100\.\.0x20010000, top from the initial SP in the vector table, bottom from _Min_Stack_Size\)"
# no stack size anywhere: an image the initial SP lies inside of
bypass top_inside.ld ".mcuprof 0x2000F000 (NOLOAD) : ALIGN(8)" ""
link top_inside top_inside.ld || { cat top_inside.err; no "top_inside does not link"; }
found top_inside "holds the stack's top 0x20010000 \(from the initial SP in the vector table\)"

[ "$bad" -eq 0 ] || exit 1
echo "link_place: all checks passed"
