#!/usr/bin/env bash
# fuzz.sh SECONDS [KIND...] - fuzz mcuprof's readers of untrusted input,
# SECONDS for each fuzz target KIND in turn (default: every one):
#   image  profile images, every extension table kind
#   gmon   gmon.out, GNU (every record tag) and BSD
#   json   JSON documents of `convert --format json`
#   elf    the firmware's ELF as `check` and `convert --elf` read it
#   dwarf  its DWARF line tables (`report --lines`, callgrind)
#   rsp    a GDB server's answers to `pull` and `ctl`
#   ocd    an OpenOCD Tcl server's answers to them
# (tests/fuzz/fuzz_KIND.c), each starting from tests/fuzz/corpus/KIND and
# tests/fuzz/regressions/KIND. With AFL++ (Debian package afl++,
# installed here if missing, as install-deps.sh does for the rest) the
# targets are built with afl-cc and AddressSanitizer and run by afl-fuzz;
# without it, by the built-in coverage-guided mutation loop of
# tests/fuzz/fuzz_driver.c. Every crash or hang found is copied to
# tests/fuzz/regressions/KIND/ (replayed by the ctest fuzz.regressions
# from then on) and the script exits 1. One line a target says what ran:
# executions, time, corpus (the paths found), edges reached, findings.
# Build directory: $MCUPROF_FUZZ_BUILD_DIR, default /tmp/mcuprof-fuzz.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:?usage: ci/fuzz.sh SECONDS [KIND...]}
shift
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(image gmon json elf dwarf rsp ocd)
build=${MCUPROF_FUZZ_BUILD_DIR:-/tmp/mcuprof-fuzz}
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

# keep FILE KIND WHAT: copy a finding into regressions/KIND/, named by
# its content
found=0
keep() {
    local name dir=$root/tests/fuzz/regressions/$2
    mkdir -p "$dir"
    name=$3-$(sha1sum "$1" | cut -c1-16)
    cp "$1" "$dir/$name"
    echo "fuzz: $2: $3 kept as tests/fuzz/regressions/$2/$name" >&2
    found=$((found + 1))
}

configure() { # DIR CMAKE-ARGS...
    local dir=$1 targets=()
    shift
    for kind in "${kinds[@]}"; do targets+=("fuzz_$kind"); done
    cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
    cmake --build "$dir" --target "${targets[@]}" -j "$jobs" >/dev/null
}

# seeds KIND: the corpus and every regression of KIND, in one directory
seeds() {
    local dir=$build/seeds-$1
    rm -rf "$dir"
    mkdir -p "$dir"
    cp "$root/tests/fuzz/corpus/$1"/* "$dir"/
    [ ! -d "$root/tests/fuzz/regressions/$1" ] ||
        find "$root/tests/fuzz/regressions/$1" -type f -exec cp {} "$dir"/ \;
    echo "$dir"
}

stat_of() { # FILE NAME: a value of afl-fuzz's fuzzer_stats
    grep -m1 "^$2 " "$1" | awk '{print $3}'
}

if command -v afl-fuzz >/dev/null && command -v afl-cc >/dev/null; then
    AFL_QUIET=1 CC=afl-cc configure "$build/afl" -DCMAKE_C_COMPILER=afl-cc -DMCUPROF_FUZZ_AFL=ON
    for kind in "${kinds[@]}"; do
        in=$(seeds "$kind")
        out=$build/afl-out-$kind
        rm -rf "$out"
        before=$found
        # -t: a hang is an input that runs 10 s. Inputs run in milliseconds,
        # but a machine loaded by other jobs stalls one for seconds now and
        # then (an input of 60 ms once ran past 2 s).
        AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
            AFL_NO_AFFINITY=1 AFL_SKIP_CRASHES=1 \
            ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:symbolize=0 \
            afl-fuzz -V "$seconds" -m none -t 10000 -i "$in" -o "$out" \
            -- "$build/afl/tests/fuzz/fuzz_$kind" @@ >"$build/afl-$kind.log" 2>&1 ||
            { tail -20 "$build/afl-$kind.log" >&2; exit 2; }
        for f in "$out"/default/crashes/id:* "$out"/default/hangs/id:*; do
            [ -f "$f" ] || continue
            case $f in */crashes/*) keep "$f" "$kind" crash ;; *) keep "$f" "$kind" hang ;; esac
        done
        stats=$out/default/fuzzer_stats
        echo "fuzz: $kind: AFL++ $(stat_of "$stats" execs_done) executions in" \
             "$(stat_of "$stats" run_time) s, corpus $(stat_of "$stats" corpus_count) inputs" \
             "($(ls "$in" | wc -l) seeds), $(stat_of "$stats" cycles_done) queue cycles," \
             "edges $(stat_of "$stats" edges_found) of the tool's $(stat_of "$stats" total_edges)" \
             "($(stat_of "$stats" bitmap_cvg))," \
             "$((found - before)) findings"
    done
else
    configure "$build/plain"
    for kind in "${kinds[@]}"; do
        in=$(seeds "$kind")
        findings=$build/findings-$kind
        rm -rf "$findings"
        mkdir -p "$findings"
        echo -n "fuzz: $kind: "
        ASAN_OPTIONS=detect_leaks=0 "$build/plain/tests/fuzz/fuzz_$kind" --mutate "$seconds" \
            --crashes "$findings" "$in" || true
        for f in "$findings"/*; do
            [ -f "$f" ] || continue
            keep "$f" "$kind" "$(basename "$f" | cut -d- -f1)"
        done
    done
fi
[ "$found" = 0 ]
