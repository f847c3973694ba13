#!/usr/bin/env bash
# run_targets.sh replay|mutate BUILD_DIR KIND... - run the fuzz targets
# built in BUILD_DIR (fuzz_KIND) as the ctest tests do:
#   replay  each over its seed corpus (corpus/KIND) and every input found
#           by a fuzzer (regressions/KIND): fuzz.regressions
#   mutate  3 s of the built-in mutation loop each, from the same inputs;
#           what crashes or hangs is saved in BUILD_DIR/findings: fuzz.quick
# Every target runs; exits 1 when one failed, naming each.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mode=$1 build=$2
shift 2
failed=()
for kind in "$@"; do
    inputs=("$here/corpus/$kind")
    [ -d "$here/regressions/$kind" ] && inputs+=("$here/regressions/$kind")
    case $mode in
    replay) "$build/fuzz_$kind" "${inputs[@]}" ;;
    mutate)
        mkdir -p "$build/findings"
        "$build/fuzz_$kind" --mutate 3 --crashes "$build/findings" "${inputs[@]}" ;;
    esac || failed+=("fuzz_$kind")
done
[ ${#failed[@]} -eq 0 ] || { echo "failed: ${failed[*]}" >&2; exit 1; }
