#!/usr/bin/env bash
# run_targets.sh replay|mutate BUILD_DIR KIND... - run the fuzz targets
# built in BUILD_DIR (fuzz_KIND) as the ctest tests do:
#   replay  each over its seed corpus (corpus/KIND) and every input found
#           by a fuzzer (regressions/KIND): fuzz.regressions
#   mutate  3 s of the built-in mutation loop each, from the same inputs;
#           what crashes or hangs is saved in BUILD_DIR/findings: fuzz.quick
# Exits 1 at the first target that fails.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mode=$1 build=$2
shift 2
for kind in "$@"; do
    inputs=("$here/corpus/$kind")
    [ -d "$here/regressions/$kind" ] && inputs+=("$here/regressions/$kind")
    case $mode in
    replay) "$build/fuzz_$kind" "${inputs[@]}" ;;
    mutate)
        mkdir -p "$build/findings"
        "$build/fuzz_$kind" --mutate 3 --crashes "$build/findings" "${inputs[@]}" ;;
    esac || { echo "fuzz_$kind failed" >&2; exit 1; }
done
