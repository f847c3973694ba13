#!/usr/bin/env bash
# make_corpus.sh BUILD_DIR - write the seed corpus of the fuzz targets
# (tests/fuzz/corpus/KIND) again: the firmware ELFs with DWARF from
# seeds/tiny_fw.c (Cortex-M3 and RV32, with the cross compilers of
# ci/install-deps.sh), then everything fuzz_seeds (built in BUILD_DIR)
# makes from them and from images it builds. The corpus is committed;
# this is only for when a reader learns a new input.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(cd "${1:?usage: make_corpus.sh BUILD_DIR}" && pwd)
# Paths relative to here, and the build directory mapped away, so that the
# ELFs and the documents naming them are the same in any checkout.
cd "$here"
corpus=$here/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

elf() { # NAME CC CODE RAM FLAGS...
    local name=$1 cc=$2 code=$3 ram=$4
    shift 4
    sed "s/@CODE@/$code/; s/@RAM@/$ram/" "$here/seeds/tiny.ld" >"$tmp/$name.ld"
    "$cc" "$@" -Os -g -fdebug-prefix-map="$here"=. -ffreestanding -nostdlib -c seeds/tiny_fw.c -pg \
        -o "$tmp/$name-fw.o"
    "$cc" "$@" -Os -ffreestanding -nostdlib -c seeds/hook.c -o "$tmp/$name-hook.o"
    "$cc" "$@" -nostdlib -Wl,--build-id -T "$tmp/$name.ld" "$tmp/$name-fw.o" "$tmp/$name-hook.o" \
        -o "$tmp/$name.elf"
}
elf arm-m3 arm-none-eabi-gcc 0x0 0x20000000 -mcpu=cortex-m3 -mthumb
elf rv32 riscv64-unknown-elf-gcc 0x80000000 0x80004000 -march=rv32imac -mabi=ilp32 -mcmodel=medany

# named without .elf, which the repository ignores as build output
for kind in elf dwarf; do
    rm -f "$corpus/$kind"/*
    mkdir -p "$corpus/$kind"
    for f in "$tmp"/*.elf; do cp "$f" "$corpus/$kind/$(basename "$f" .elf)"; done
done
"$build/fuzz_seeds" corpus corpus/elf/arm-m3 corpus/elf/rv32
ls -l "$corpus"/*
