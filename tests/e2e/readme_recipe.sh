#!/usr/bin/env bash
# readme_recipe.sh ARCH WORKDIR - build examples/user-project with exactly
# the plain commands of README.md, section "2b. Without CMake", and check
# the firmware like e2e.user_project.plain.
#   ARCH: cortex-m (the block that calls arm-none-eabi-gcc; main.c,
#         startup.c and app.ld of examples/user-project, on mps2-an385) or
#         riscv (the block that calls riscv64-unknown-elf-gcc; main.c and
#         riscv/startup.S, riscv/app.ld, on riscv32-virt).
# The block runs as written but for its line MCUPROF=path/to/mcuprof; it
# must succeed without a single warning. Tools from the environment:
# MCUPROF, GPROF, GPROF_CHECK (check_firmware.sh).
set -euo pipefail
arch=$1
work=$2
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

# The ```sh blocks of section 2b, each on one line of blocks.txt's records
# (separated by a NUL), then the one that calls $cc.
awk '
    /^### / { in2b = ($0 ~ /^### 2b\. /) }
    in2b && /^```sh$/ { inblock = 1; next }
    in2b && inblock && /^```$/ { inblock = 0; printf "%c", 0; next }
    in2b && inblock { print }
' "$repo/README.md" >"$work/blocks"
n=0
while IFS= read -r -d '' block; do
    if grep -q "^[^#]*\b$cc " <<<"$block"; then
        n=$((n + 1))
        printf '%s\n' "$block" >"$work/recipe.sh"
    fi
done <"$work/blocks"
[ "$n" -eq 1 ] || fail "README.md section 2b has $n sh blocks calling $cc, not 1"
grep -qx 'MCUPROF=path/to/mcuprof' "$work/recipe.sh" || fail "the block does not set MCUPROF=path/to/mcuprof"
sed -i "s|^MCUPROF=path/to/mcuprof\$|MCUPROF=$repo|" "$work/recipe.sh"

cp "${files[@]}" "$work/build/"
(cd "$work/build" && bash -euo pipefail "$work/recipe.sh") >"$work/recipe.log" 2>&1 ||
    { cat "$work/recipe.log"; fail "the README's commands failed (output above; commands in $work/recipe.sh)"; }
if grep -q 'warning' "$work/recipe.log"; then
    cat "$work/recipe.log"
    fail "the README's commands warn (above)"
fi
[ -f "$work/build/app.elf" ] || fail "the README's commands made no app.elf"
echo "ok   README.md 2b ($cc) builds $(basename "$work")/build/app.elf without a warning"

bash "$here/check_firmware.sh" "$board" "$work/build/app.elf" "$work/run" "$here/user_project.expect"
