#!/usr/bin/env bash
# readme_recipe.sh ARCH WORKDIR [OPT] - build examples/user-project with exactly
# the plain commands of the manual, docs/instrumenting.md, section "Without
# CMake" (the README's recipe links there), and check the firmware like
# e2e.user_project.plain.
#   ARCH: cortex-m (the block that calls arm-none-eabi-gcc; main.c,
#         startup.c and app.ld of examples/user-project, on mps2-an385) or
#         riscv (the block that calls riscv64-unknown-elf-gcc; main.c and
#         riscv/startup.S, riscv/app.ld, on riscv32-virt).
# The block runs as written but for its line MCUPROF=path/to/mcuprof, and
# its line OPT=... when OPT is given (OPT="-O2 -flto", as the manual says
# for link-time optimisation); it must succeed without a single warning. Tools from the environment:
# MCUPROF, GPROF, GPROF_CHECK (check_firmware.sh).
set -euo pipefail
arch=$1
work=$2
opt=${3:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
user=$repo/examples/user-project

fail() {
    echo "readme_recipe: $arch: $*" >&2
    exit 1
}

case $arch in
cortex-m) cc=arm-none-eabi-gcc board=mps2-an385 files=("$user/main.c" "$user/startup.c" "$user/app.ld") ;;
riscv) cc=riscv64-unknown-elf-gcc board=riscv32-virt files=("$user/main.c" "$user/riscv/startup.S" "$user/riscv/app.ld") ;;
*) fail "ARCH is cortex-m or riscv" ;;
esac

rm -rf "$work"
mkdir -p "$work/build"

# The ```sh blocks of the section "## Without CMake" (up to the next
# "## " heading outside a code block), each a record of blocks (ended by
# a NUL), then the one that calls $cc.
doc=$repo/docs/instrumenting.md
awk '
    !inblock && /^## / { insec = ($0 == "## Without CMake") }
    insec && !inblock && /^```sh$/ { inblock = 1; next }
    insec && inblock && /^```$/ { inblock = 0; printf "%c", 0; next }
    insec && inblock { print }
' "$doc" >"$work/blocks"
n=0
while IFS= read -r -d '' block; do
    if grep -q "^[^#]*\b$cc " <<<"$block"; then
        n=$((n + 1))
        printf '%s\n' "$block" >"$work/recipe.sh"
    fi
done <"$work/blocks"
[ "$n" -eq 1 ] || fail "docs/instrumenting.md, Without CMake, has $n sh blocks calling $cc, not 1"
grep -qx 'MCUPROF=path/to/mcuprof' "$work/recipe.sh" || fail "the block does not set MCUPROF=path/to/mcuprof"
sed -i "s|^MCUPROF=path/to/mcuprof\$|MCUPROF=$repo|" "$work/recipe.sh"
if [ -n "$opt" ]; then
    grep -q '^OPT=' "$work/recipe.sh" || fail "the block sets no OPT=..."
    sed -i "s|^OPT=.*\$|OPT=\"$opt\"|" "$work/recipe.sh"
fi

cp "${files[@]}" "$work/build/"
(cd "$work/build" && bash -euo pipefail "$work/recipe.sh") >"$work/recipe.log" 2>&1 ||
    { cat "$work/recipe.log"; fail "the manual's commands failed (output above; commands in $work/recipe.sh)"; }
if grep -q 'warning' "$work/recipe.log"; then
    cat "$work/recipe.log"
    fail "the manual's commands warn (above)"
fi
[ -f "$work/build/app.elf" ] || fail "the manual's commands made no app.elf"
echo "ok   docs/instrumenting.md, Without CMake ($cc${opt:+, OPT=\"$opt\"}), builds $(basename "$work")/build/app.elf without a warning"

bash "$here/check_firmware.sh" "$board" "$work/build/app.elf" "$work/run" "$here/user_project.expect"
