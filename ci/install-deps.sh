#!/usr/bin/env bash
# install-deps.sh [--demo] - install the Debian packages mcuprof needs, only
# those missing. Runs apt-get as root (directly, or through sudo).
#   default: everything the test suite needs
#   --demo:  only what the demo needs (host tool, ARM and RISC-V
#            toolchains, QEMU for both)
#   --windows: what the Windows build of the host tool needs (mingw-w64,
#            its zlib, the g++ whose libsupc++ demangles, Wine for its tests)
set -euo pipefail

demo=(cmake make gcc libc6-dev pkg-config libelf-dev
    gcc-arm-none-eabi binutils-arm-none-eabi qemu-system-arm
    gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf qemu-system-misc libdw-dev zlib1g-dev libiberty-dev)
tests=("${demo[@]}" libcmocka-dev gdb-multiarch openocd picolibc-riscv64-unknown-elf valgrind time graphviz golang-go jq
    curl iproute2 man-db groff-base tmux)

windows=(cmake make gcc-mingw-w64-x86-64-win32 g++-mingw-w64-x86-64-win32 libz-mingw-w64-dev wine64)

want=("${tests[@]}")
[ "${1:-}" = --demo ] && want=("${demo[@]}")
[ "${1:-}" = --windows ] && want=("${windows[@]}")

missing=()
for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
as_root=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || {
        echo "install-deps: need root to install: ${missing[*]}" >&2
        exit 1
    }
    as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
