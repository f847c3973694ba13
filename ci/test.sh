#!/usr/bin/env bash
# test.sh - install what is missing, build the host tool, the test
# firmware for every board and the tests, and run the whole suite (ctest).
# Build directory: $MCUPROF_BUILD_DIR, default build/ in the repository.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${MCUPROF_BUILD_DIR:-$root/build}
jobs=$(nproc 2>/dev/null || echo 2)

"$root/ci/install-deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" --output-on-failure -j "$jobs"
