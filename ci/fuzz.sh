#!/usr/bin/env bash
# fuzz.sh SECONDS - fuzz mcuprof's readers of untrusted input (profile
# images, gmon.out, JSON documents, the firmware's ELF: tests/fuzz/fuzz_inputs.c) for
# SECONDS, starting from tests/fuzz/corpus and tests/fuzz/regressions.
# With AFL++ (Debian package afl++, installed here if missing, as
# install-deps.sh does for the rest) the target is built with afl-cc and
# AddressSanitizer and run by afl-fuzz; without it, by the built-in
# coverage-guided mutation loop of tests/fuzz/fuzz_driver.c. Every crash or
# hang found is copied to tests/fuzz/regressions/ (replayed by the ctest
# fuzz.regressions from then on) and the script exits 1.
# Build directory: $MCUPROF_FUZZ_BUILD_DIR, default /tmp/mcuprof-fuzz.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:?usage: ci/fuzz.sh SECONDS}
build=${MCUPROF_FUZZ_BUILD_DIR:-/tmp/mcuprof-fuzz}
regressions=$root/tests/fuzz/regressions
jobs=$(nproc 2>/dev/null || echo 2)

if ! command -v afl-fuzz >/dev/null; then
    as_root=()
    [ "$(id -u)" -eq 0 ] || as_root=(sudo)
    echo "fuzz: installing afl++" >&2
    { DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends afl++ >/dev/null ||
        { "${as_root[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            "${as_root[@]}" apt-get install -y -qq --no-install-recommends afl++ >/dev/null; }; } ||
        echo "fuzz: afl++ not installable: using the built-in mutation loop" >&2
fi

# Seeds: the corpus, every regression, and a firmware ELF when one is built.
seeds=$build/seeds
rm -rf "$seeds"
mkdir -p "$seeds"
cp "$root"/tests/fuzz/corpus/* "$seeds"/
find "$regressions" -type f ! -name README -exec cp {} "$seeds"/ \;
elf=${MCUPROF_BUILD_DIR:-$root/build}/tests/e2e/fw-mps2-an385/table_full.elf
[ -f "$elf" ] && cp "$elf" "$seeds"/

# keep FILE KIND: copy a finding into regressions/, named by its content
found=0
keep() {
    local name
    name=$2-$(sha1sum "$1" | cut -c1-16)
    cp "$1" "$regressions/$name"
    echo "fuzz: $2 kept as tests/fuzz/regressions/$name" >&2
    found=$((found + 1))
}

configure() { # DIR CMAKE-ARGS...
    local dir=$1
    shift
    cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
    cmake --build "$dir" --target fuzz_inputs -j "$jobs" >/dev/null
}

if command -v afl-fuzz >/dev/null && command -v afl-cc >/dev/null; then
    AFL_QUIET=1 CC=afl-cc configure "$build/afl" -DCMAKE_C_COMPILER=afl-cc -DMCUPROF_FUZZ_AFL=ON
    out=$build/afl-out
    rm -rf "$out"
    AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
        AFL_NO_AFFINITY=1 ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:symbolize=0 \
        afl-fuzz -V "$seconds" -m none -t 2000 -i "$seeds" -o "$out" \
        -- "$build/afl/tests/fuzz/fuzz_inputs" @@ >"$build/afl.log" 2>&1 ||
        { tail -20 "$build/afl.log" >&2; exit 2; }
    for f in "$out"/default/crashes/id:* "$out"/default/hangs/id:*; do
        [ -f "$f" ] || continue
        case $f in */crashes/*) keep "$f" crash ;; *) keep "$f" hang ;; esac
    done
    stats=$out/default/fuzzer_stats
    echo "fuzz: AFL++ $(grep -m1 '^execs_done' "$stats" | awk '{print $3}') executions in $(grep -m1 '^run_time' "$stats" | awk '{print $3}') s," \
         "corpus $(grep -m1 '^corpus_count' "$stats" | awk '{print $3}') inputs ($(ls "$seeds" | wc -l) seeds)," \
         "$found findings"
else
    configure "$build/plain"
    findings=$build/findings
    rm -rf "$findings"
    mkdir -p "$findings"
    ASAN_OPTIONS=detect_leaks=0 "$build/plain/tests/fuzz/fuzz_inputs" --mutate "$seconds" \
        --crashes "$findings" "$seeds" || true
    for f in "$findings"/*; do
        [ -f "$f" ] || continue
        keep "$f" "$(basename "$f" | cut -d- -f1)"
    done
fi
[ "$found" = 0 ]
