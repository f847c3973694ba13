#!/usr/bin/env bash
# bench/time_accuracy/run.sh BUILD MCUPROF - the time profile against the
# truth on every board, with the defaults and without each of them.
# Builds bench/time_accuracy (the time_*.elf test firmware and the demo) in
# three variants per board, runs each under QEMU at the board's modelled
# clock (ci/qemu/run.sh's default -icount shift), converts with mcuprof and
# reads gprof's flat profile; the truth is what each firmware prints on
# its EXPECT lines (computed from its instruction counts or clock ticks).
# Writes markdown to stdout:
#   accuracy rows: | board | firmware | samples | defaults | no alignment | no dither |
#                  each cell: max |gprof - truth| in points (functions' values)
#   "masked" rows: | board | masked ticks | periods | missed_periods counted |
#   "flash" rows:  | board | firmware | text defaults | text unaligned | cost |
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:?build directory}
mcuprof=${2:?mcuprof binary}
run=$root/ci/qemu/run.sh
# every board in boards/ (their manifests, boards/boards.sh)
mapfile -t boards < <("$root/ci/qemu/board-tools.sh" --list)
variants=(defaults noalign nodither)
firmware=(time_packed time_locked time_isr time_os time_cold demo)
jobs=$(nproc 2>/dev/null || echo 2)
log=$build/time_accuracy.log
: >"$log"
die() {
    echo "time_accuracy: error: $*" >&2
    exit 1
}

acc=$build/time_rows.txt masked=$build/time_masked.txt flash=$build/time_flash.txt
: >"$acc"
: >"$masked"
: >"$flash"
for board in "${boards[@]}"; do
    tools=$("$root/ci/qemu/board-tools.sh" "$board")
    for v in "${variants[@]}"; do
        echo "time_accuracy: $board, $v" >&2
        dir=$build/time/$board-$v
        cmake -S "$here" -B "$dir" -DMCUPROF_BOARD="$board" -DBENCH_VARIANT="$v" \
            -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-$tools.cmake" >>"$log" 2>&1 ||
            die "configuring $dir failed (see $log)"
        cmake --build "$dir" -j"$jobs" >>"$log" 2>&1 || die "building $dir failed (see $log)"
        for fw in "${firmware[@]}" time_masked; do
            work=$dir/run-$fw
            rm -rf "$work"
            mkdir -p "$work"
            # a failed self-check (time_masked) still leaves its console
            "$run" "$board" "$dir/$fw.elf" --workdir "$work" --timeout 300 >"$work/console.txt" 2>&1 || true
            [ -s "$work/mcuprof.img" ] || die "$board $v $fw: no image (console: $work/console.txt)"
            "$mcuprof" convert "$work/mcuprof.img" -o "$work/gmon.out" 2>>"$log"
            "$tools-gprof" -b -p "$dir/$fw.elf" "$work/gmon.out" >"$work/flat.txt"
            "$mcuprof" info "$work/mcuprof.img" >"$work/info.txt"
        done
    done
    # accuracy: one row per firmware, one cell per variant
    for fw in "${firmware[@]}"; do
        row="| $board | $fw |"
        samples=$(awk '$1 == "samples_taken" { print $2 }' "$build/time/$board-defaults/run-$fw/info.txt")
        row="$row $samples |"
        for v in "${variants[@]}"; do
            work=$build/time/$board-$v/run-$fw
            cell=$(awk '
                FNR == NR { if ($1 == "EXPECT" && $2 == "share") { want[$3] = $4; order[++n] = $3 } next }
                { got[$NF] = $1 }
                function abs(x) { return x < 0 ? -x : x }
                END {
                    m = 0; s = ""
                    for (i = 1; i <= n; i++) {
                        f = order[i]; g = (f in got) ? got[f] : 0
                        e = abs(g - want[f]); if (e > m) m = e
                        s = s (i > 1 ? " / " : "") sprintf("%.1f", g)
                    }
                    mark = (m > 1) ? "**" : ""
                    printf "%s%.2f%s (%s)", mark, m, mark, s
                }' "$work/console.txt" "$work/flat.txt")
            row="$row $cell |"
        done
        echo "$row" >>"$acc"
    done
    # missed periods of the masked stretch, with the defaults
    work=$build/time/$board-defaults/run-time_masked
    line=$(grep '^masked ticks' "$work/console.txt" || echo "masked ticks ?, periods ?, missed_periods ?")
    src=$(awk '$1 == "missed_source" { print $2 }' "$work/info.txt")
    echo "$line" | awk -v b="$board" -v s="${src:-?}" '{ gsub(",", ""); printf "| %s | %s | %s | %s | %s |\n", b, $3, $5, $7, s }' >>"$masked"
    # flash: what aligning the functions costs
    for fw in demo time_packed time_os; do
        d=$("$tools-size" -A "$build/time/$board-defaults/$fw.elf" | awk '$1 == ".text" { print $2 }')
        n=$("$tools-size" -A "$build/time/$board-noalign/$fw.elf" | awk '$1 == ".text" { print $2 }')
        nf=$("$tools-readelf" -sW "$build/time/$board-defaults/$fw.elf" | awk '$4 == "FUNC"' | wc -l)
        awk -v b="$board" -v f="$fw" -v d="$d" -v n="$n" -v nf="$nf" 'BEGIN {
            printf "| %s | %s | %d | %d | %d | %d B (%.1f B per function, %.1f %%) |\n", b, f, nf, d, n, d - n, (d - n) / nf, 100 * (d - n) / n }' >>"$flash"
    done
done
