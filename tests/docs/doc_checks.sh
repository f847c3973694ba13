# doc_checks.sh - sourced by doc_commands.sh: chk_NAME runs the command
# ($cmd, $key, $comment; doc_run.sh) a table line names NAME for, and
# checks what the text next to it says.
chk_qemu_arm() {
    local d
    for d in arm paths; do
        mkdir -p "$work/$d"
        cp "$([ $d = arm ] && echo "$DEMO" || echo "$DEMO_PATHS")" "$work/$d/app.elf"
        ok_run "$work/$d"
        has "$out" 'profile image written to mcuprof.img' "the firmware did not say it wrote its image"
        [ -s "$work/$d/mcuprof.img" ] || fail "$key: no mcuprof.img in $d/"
    done
}
chk_qemu_rv() {
    [ -n "${DEMO_RV:-}" ] || { echo "skip $key: no riscv32-virt demo (MCUPROF_E2E_BOARDS)"; return 0; }
    mkdir -p "$work/rv"
    cp "$DEMO_RV" "$work/rv/app.elf"
    ok_run "$work/rv"
    [ -s "$work/rv/mcuprof.img" ] || fail "$key: no mcuprof.img"
}
chk_gmon() {
    ok_run
    [ "$(head -c 8 "$work/gmon.out" | od -An -tx1 | tr -d ' \n')" = 676d6f6e01000000 ] ||
        fail "$key: gmon.out does not start with the GNU header (gmon, version 1)"
    cmd="$cmd --format bsd" ok_run
    [ "$(od -An -tx4 -j12 -N4 "$work/gmon.out" | tr -d ' ')" = 00051879 ] ||
        fail "$key --format bsd: no BSD 4.4 version word"
    ok_run
}
# The flat profile and call graph, and the shares the Quick start quotes
# (50, 33.3 and 16.7 %, +-1 point); RISC-V's gprof on the riscv32-virt demo.
chk_gprof() {
    local f want
    ok_run
    has "$out" '^Flat profile:' "no flat profile"
    has "$out" 'Call graph' "no call graph"
    # the Quick start's "demo's report, abridged", line for line
    awk '/report, abridged/ { f = 1 } f && /^```/ { b++; next } b == 1' "$repo/README.md" >"$work/abridged"
    [ -s "$work/abridged" ] || fail "README.md has no block after \"The demo's report, abridged\""
    shape_files "$work/abridged" "$out"
    for want in "hot_a 50" "hot_b 33.3" "hot_c 16.7"; do
        set -- $want
        f=$(awk -v f="$1" '$NF == f && NF == 7 { print $1; exit }' "$out")
        within "${f:-0}" "$2" 1 || fail "$key: $1 has ${f:-no} % of the time, the README says $2 (+-1)"
    done
    if [ -s "$qemu_dir/rv/mcuprof.img" ]; then
        cp "$DEMO_RV" "$work/rv.elf"
        "$MCUPROF" convert "$qemu_dir/rv/mcuprof.img" -o "$work/rv.gmon"
        cmd="riscv64-unknown-elf-gprof -b rv.elf rv.gmon" ok_run
        has "$out" '^Flat profile:' "riscv64-unknown-elf-gprof: no flat profile of the RV32 demo"
        has "$out" ' hot_a$' "riscv64-unknown-elf-gprof: no hot_a in the RV32 demo's profile"
    fi
}
chk_info_elf() {
    ok_run
    has "$out" '^not recorded' "no section of what was not recorded"
    has "$out" 'lost_calls_reentrant' "no call counter"
    has "$out" '95 % interval' "no interval on the shares"
    has "$out" '^  hot_a +[0-9]+ +4[89]\.[0-9]+ +[0-9.]+\.\.[0-9.]+' "no share of hot_a with its interval"
}
chk_files_named() { # every file the comment names is written
    local f
    (cd "$work" && rm -f gmon.out mcuprof.pb.gz callgrind.out.mcuprof mcuprof.dot mcuprof.json)
    ok_run
    for f in ${comment//,/}; do
        [ -s "$work/$f" ] || fail "$key: no $f"
    done
}
chk_web_default() {
    local d
    web "$work"
    has "$work/web/top.html" 'hot_a' "the Top view has no hot_a"
    has "$work/web/source_f_hot_a.html" 'workload\.c' "the Source view has no line of hot_a"
    [ "$(edges "$work/web/_si_samples.html")" -eq 0 ] || fail "$key: the graph has edges in time without PATHS"
    [ "$(edges "$work/web/_si_calls.html")" -gt 0 ] || fail "$key: Sample > calls has no call graph"
    d=$(flame_depth)
    [ "$d" -eq 1 ] || fail "$key: the flame graph is $d deep without PATHS, the text says it needs PATHS"
    has "$work/web/err.txt" '^Serving web UI' "pprof did not serve"
    # ... and the tool says why when it writes the file (once)
    (cd "$work" && "$MCUPROF" convert mcuprof.img --elf app.elf --format pprof,json 2>"$work/note.txt")
    [ "$(grep -c 'note: .*without PATHS.*flame graph' "$work/note.txt")" -eq 1 ] ||
        { cat "$work/note.txt" >&2; fail "convert --format pprof without paths: not one note saying what needs PATHS"; }
    (cd "$work" && go tool pprof -comments mcuprof.pb.gz >"$work/comments.txt" 2>&1)
    has "$work/comments.txt" '^paths: none, .*PATHS' "no comment in the profile saying it has no call paths"
}
chk_dot_sized() {
    local a fib
    ok_run
    has "$work/callgraph.svg" '<svg' "no SVG written"
    a=$(awk -F'fontsize=' '/label="hot_a\\n/ { split($2, x, ","); print x[1] }' "$work/mcuprof.dot")
    fib=$(awk -F'fontsize=' '/label="fib\\n/ { split($2, x, ","); print x[1] }' "$work/mcuprof.dot")
    awk -v a="$a" -v b="$fib" 'BEGIN { exit !(a > b) }' || fail "$key: hot_a's node ($a) is not larger than fib's ($fib)"
    # every edge's count is the arcs' (JSON, summed over call sites)
    jq -r '.arcs[] | "\(.caller // "spontaneous")|\(.callee_name) \(.count)"' "$work/mcuprof.json" >"$work/arcs.txt"
    awk 'NR == FNR { want[$1] += $2; next }
         /^ *f[0-9]+ \[label="/ { n = $0; sub(/^[^"]*"/, "", n); sub(/\\n.*/, "", n); name[$1] = n; next }
         / -> / {
             l = $0; sub(/.*label="/, "", l); sub(/".*/, "", l)
             k = ($1 in name ? name[$1] : $1) "|" ($3 in name ? name[$3] : $3)
             edges++
             if (want[k] != l) { print "edge " k " says " l ", the arcs " want[k] + 0; bad = 1 }
         }
         END { if (edges < 10) { print edges " edges"; bad = 1 } exit bad }' "$work/arcs.txt" "$work/mcuprof.dot" >"$work/edges.txt" ||
        fail "$key: $(head -1 "$work/edges.txt")"
    [ "$(awk '$1 == "fib|fib" { n += $2 } END { print n + 0 }' "$work/arcs.txt")" = 464 ] ||
        fail "$key: fib does not call itself 464 times (gprof's 1+464)"
}
chk_report_lines() {
    ok_run
    has "$out" '^flat profile' "no flat profile"
    has "$out" '^call graph' "no call graph"
    has "$out" '^source lines' "no source lines"
    has "$out" 'workload\.c:[0-9]+' "no source line of the demo"
}
chk_diff() {
    (cd "$work" && cp "$DEMO" before.elf && cp "$DEMO_PATHS" after.elf &&
        cp "$qemu_dir/arm/mcuprof.img" before.img && cp "$qemu_dir/paths/mcuprof.img" after.img)
    doc_run
    has "$out" '^Share of all samples' "no share comparison"
    has "$out" '^Thresholds:' "no threshold section"
    # exit 3 when a function's share moved past the threshold, else 0
    if grep -q ' passes --fail-share 1' "$out"; then expect_rc 3; else has "$out" '^  none passed' "no verdict"; expect_rc 0; fi
}
chk_order() {
    rm -f "$work/mcuprof_order.ld"
    ok_run
    order_like_doc "$work/mcuprof_order.ld"
}
# The linker fragment starts as docs/formats/order.md shows it.
order_like_doc() {
    awk '/^```/ { b++; next } b == 3 && !/^\.\.\./' "$repo/docs/formats/order.md" >"$work/order_doc"
    shape_files "$work/order_doc" "$1"
}
shape_files() { # DOC_LINES ACTUAL: as shape, from a file of doc lines
    { echo '```'; cat "$1"; echo '```'; } >"$work/shape_doc.md"
    repo=$work shape shape_doc.md 1 "$2"
}
chk_info_json() {
    ok_run
    jq -e '.header and .counters and .arcs and .ranges' "$out" >/dev/null || fail "$key: not the whole profile"
}
chk_check() {
    ok_run
    grep -q 'error' "$out" && fail "$key: errors on the demo: $(grep error "$out")"
    return 0
}
# A synopsis: every option it shows is one `mcuprof help` knows.
chk_synopsis() {
    local sub o
    sub=$(awk '{ print $2 }' <<<"$cmd")
    "$MCUPROF" help "$sub" >"$work/help.txt" 2>&1 || fail "$key: mcuprof help $sub failed"
    for o in $(grep -oE -- '--[a-z-]+' <<<"$cmd"); do
        grep -qE -- "(^|[ [(,])$o([ =]|$)" "$work/help.txt" || fail "$key: mcuprof help $sub has no $o"
    done
    for o in $(grep -oE -- '^ +(-[a-z], )?--[a-z-]+' "$work/help.txt" | grep -oE -- '--[a-z-]+' | grep -vx -- --help); do
        grep -qF -- "$o" <<<"$cmd" || fail "$key: the synopsis leaves out $o, which mcuprof help $sub has"
    done
}
# A "$ " command: its output has the lines the doc prints under it.
chk_transcript() {
    if [[ $cmd == *build/demo-mps2-an385/* ]]; then # where ci/qemu/demo.sh leaves them
        mkdir -p "$work/build/demo-mps2-an385"
        cp "$DEMO" "$work/build/demo-mps2-an385/demo.elf"
        cp "$work/mcuprof.img" "$work/build/demo-mps2-an385/mcuprof.img"
    fi
    ok_run
    shape "$first_file" "$first_line" "$out"
}
# record under QEMU: the demo (app.elf, mps2-an385) recognised, run to its
# exit, its gmon.out written, the summary and the flat profile printed.
chk_record() {
    rm -f "$work/gmon.out"
    ok_run
    [ -s "$work/gmon.out" ] || fail "$key: no gmon.out"
    has "$err" '^mcuprof: record: mps2-an385 under QEMU \(recognised: .*\), ran [0-9.]+ s, firmware exited 0, [0-9,]+ samples, [0-9,]+ arcs, nothing lost$' "no summary line"
    has "$out" '^flat profile' "no flat profile"
}
# ... and its transcript: the summary line (standard error), then the flat
# profile.
chk_record_transcript() {
    ok_run
    cat "$err" "$out" >"$work/record.txt"
    shape "$first_file" "$first_line" "$work/record.txt"
    has "$work/uart.log" 'profile image written to mcuprof.img' "the console is not in uart.log"
}
# ... and once stopped, the target counts nothing more.
chk_ctl_stop() {
    local stopped
    chk_transcript
    stopped=$(head -1 "$out")
    sleep 0.3
    cmd="mcuprof ctl status --gdb localhost:3333 --elf app.elf" ok_run
    [ "$(head -1 "$out")" = "$stopped" ] || fail "$key: '$stopped', then '$(head -1 "$out")'"
}
chk_callgrind() {
    rm -f "$work/callgrind.out.mcuprof"
    ok_run
    has "$work/callgrind.out.mcuprof" '^fn=.*hot_a' "no hot_a in callgrind.out.mcuprof"
}
annotate_count() { # the count callgrind_annotate gives FUNCTION
    awk -v f="$1" '$0 ~ ("[ :]" f "( |$|\\[)") { gsub(/,/, "", $1); print $1; exit }' "$out"
}
chk_annotate_self() {
    local a
    ok_run
    a=$(annotate_count hot_a)
    [ "${a:-0}" -gt 4000 ] || fail "$key: hot_a's self samples ${a:-none}"
    [ "$(annotate_count workload_run)" = "" ] || [ "$(annotate_count workload_run)" -lt 100 ] ||
        fail "$key: workload_run's self cost includes its callees"
}
chk_annotate_incl() {
    local w
    ok_run
    w=$(annotate_count workload_run)
    [ "${w:-0}" -gt 9000 ] || fail "$key: workload_run's inclusive cost ${w:-none}, not its callees' too"
}
chk_dot_file() { rm -f "$work/mcuprof.dot"; ok_run; has "$work/mcuprof.dot" '^digraph' "no mcuprof.dot"; }
chk_svg() { rm -f "$work/callgraph.svg"; ok_run; has "$work/callgraph.svg" '<svg' "no SVG"; }
chk_folded_refused() {
    doc_run
    expect_rc 1
    local doc
    doc=$(awk '/^```/ { b++; next } b == 5' "$repo/docs/formats/folded.md")
    [ "$(cat "$err")" = "$doc" ] || fail "$key: the error is not the one docs/formats/folded.md shows: $(cat "$err")"
    [ ! -e "$work/mcuprof.folded" ] || fail "$key: a folded file was written"
}
chk_json_file() { rm -f "$work/mcuprof.json"; ok_run; jq -e .header "$work/mcuprof.json" >/dev/null; }
# "the same" as --format json, with and without the ELF
chk_json_same() {
    local plain=${cmd/ \[--elf firmware.elf\]/}
    cmd="$plain --elf firmware.elf" ok_run
    cmp -s "$out" "$work/mcuprof.json" || fail "$key: info --json --elf and mcuprof.json differ"
    "$MCUPROF" convert "$work/mcuprof.img" --format json:"$work/noelf.json"
    cmd=$plain ok_run
    cmp -s "$out" "$work/noelf.json" || fail "$key: info --json and --format json (no ELF) differ"
}
chk_jq_top() { ok_run; [ "$(jq -rs '.[0].name' "$out")" = hot_a ] || fail "$key: hot_a is not first"; }
chk_jq_sum() { ok_run; [ "$(cat "$out")" = null ] || fail "$key: the demo has no crc32, yet: $(cat "$out")"; }
chk_jq_addr() {
    ok_run
    [ "$(printf '0x%x' "$(cat "$out")")" = "$("$MCUPROF" info "$work/mcuprof.img" | awk '$1 == "image" && $2 == "address" { print $3 }')" ] ||
        fail "$key: $(cat "$out") is not the image's address"
}
chk_jq_frozen() { doc_run; expect_rc 1; [ "$(cat "$out")" = null ] || fail "$key: the demo's image says frozen"; }
chk_order_file() { rm -f "$work/mcuprof_order.ld"; ok_run; order_like_doc "$work/mcuprof_order.ld"; }
chk_pprof_file() { rm -f "$work/mcuprof.pb.gz"; ok_run; [ -s "$work/mcuprof.pb.gz" ] || fail "$key: no mcuprof.pb.gz"; }
chk_pprof_top() {
    local a
    ok_run
    a=$(awk '$NF == "hot_a" { sub(/%/, "", $2); print $2 }' "$out")
    within "${a:-0}" 50 1 || fail "$key: hot_a ${a:-absent} %, the demo's 50 (+-1)"
    # docs/formats/pprof.md, "What you see", the file written with --elf
    [ "$cmd" = "go tool pprof -top mcuprof.pb.gz" ] || return 0
    awk '/^## What you see/ { f = 1 } f && /^```/ { b++; next } b == 1' "$repo/docs/formats/pprof.md" >"$work/seen"
    shape_files "$work/seen" "$out"
}
chk_pprof_calls() {
    ok_run
    has "$out" '^Type: calls' "not the calls"
    has "$out" '^ +10[0-9]{3} .* shared_leaf$' "no call count of shared_leaf"
}
chk_pprof_peek() {
    ok_run
    has "$out" '\|   mcuprof_sample_isr_chain$' "no caller of shared_mid"
    has "$out" '\| shared_mid$' "no shared_mid"
    has "$out" '\|   shared_leaf$' "no callee of shared_mid"
    awk '/^## What you see/ { f = 1 } f && /^```/ { b++; next } b == 3' "$repo/docs/formats/pprof.md" >"$work/peek"
    shape_files "$work/peek" "$out"
}
chk_pprof_list() {
    ok_run
    has "$out" '^ROUTINE =+ hot_a in .*workload\.c' "no routine hot_a"
    has "$out" '^ +[0-9]+ +[0-9]+ +[0-9]+:' "no samples on a source line"
}
chk_pprof_comments() {
    ok_run
    has "$out" 'lost_samples_out_of_range' "no sample loss counters"
    has "$out" 'lost_arcs_table_full' "no call loss counters"
}
chk_pprof_noelf() {
    rm -f "$work/mcuprof.pb.gz"
    ok_run
    [ -s "$work/mcuprof.pb.gz" ] || fail "$key: no mcuprof.pb.gz"
}
# A PATHS build: the folded stacks flamegraph.pl reads, some deeper than
# one frame.
chk_folded() {
    rm -f "$work/mcuprof.folded"
    ok_run
    awk '!/^[^ ].* [0-9]+$/ { print "not a folded stack: " $0; exit 1 }' "$work/mcuprof.folded" >&2 ||
        fail "$key: not folded stacks"
    has "$work/mcuprof.folded" '^main;([^ ]+;)?hot_a [0-9]+$' "no stack from main to hot_a"
    has "$work/mcuprof.folded" '^main;[^; ]+;[^ ]+ [0-9]+$' "no stack three frames deep"
}
chk_web_paths() {
    local d
    rm -f "$work/mcuprof.pb.gz"
    ok_run
    (cd "$work" && go tool pprof -traces mcuprof.pb.gz >"$work/traces.txt" 2>&1)
    d=$(trace_depth "$work/traces.txt")
    [ "$d" -ge 3 ] || fail "$key: pprof's deepest stack has $d frames"
    cmd=$comment web "$work"
    d=$(flame_depth)
    [ "$d" -ge 3 ] || fail "$comment: the flame graph is $d deep"
    grep -q 'note: ' "$err" && fail "$key: a note about missing paths, with paths"
    return 0
}
chk_report_paths() {
    ok_run
    has "$out" 'incl % \(paths\)' "no incl % (paths) column"
}

# rtos: examples/freertos as rtos.<board>.example built it, where the docs
# build it (build-rtos/), run from a checkout (ci/ links to the repository's)
chk_rtos_run() {
    local board dir
    ln -sfn "$repo/ci" "$work/ci"
    for board in mps2-an385 riscv32-virt; do
        dir=$work/$board
        [ -n "${RTOS_EXAMPLE_DIR:-}" ] && [ -s "$RTOS_EXAMPLE_DIR-$board/app.elf" ] || continue
        mkdir -p "$dir/build-rtos"
        ln -sfn "$repo/ci" "$dir/ci"
        cp "$RTOS_EXAMPLE_DIR-$board/app.elf" "$dir/build-rtos/app.elf"
        cmd=${cmd/mps2-an385/$board} ok_run "$dir"
        [ -s "$dir/mcuprof.img" ] || fail "$key ($board): no mcuprof.img written"
    done
    [ -s "$work/mps2-an385/mcuprof.img" ] || fail "$key: no run on mps2-an385"
}
# "What a run gives on the M3": info's task table, then (after "...") the
# folded paths
rtos_shown() { # 1: the lines before "...", 2: after
    awk -v part="$1" '/^What a run gives/ { f = 1 } f && /^```/ { b++; next }
        b == 1 { if ($0 == "...") { p = 2; next } if ((p ? p : 1) == part) print }' "$repo/docs/rtos.md"
}
chk_rtos_info() {
    ok_run "$work/mps2-an385"
    rtos_shown 1 >"$work/rtos_info"
    shape_files "$work/rtos_info" "$out"
}
chk_rtos_folded() {
    ok_run "$work/mps2-an385"
    rtos_shown 2 >"$work/rtos_folded"
    shape_files "$work/rtos_folded" "$work/mps2-an385/mcuprof.folded"
}

# target: QEMU's gdbstub on the docs' ports
qemu_pids=()
start_gdbstub() { # ELF PORT DIR PATTERN
    mkdir -p "$3"
    "$repo/ci/qemu/run.sh" mps2-an385 "$1" --workdir "$3" --timeout 60 -- -gdb "tcp:127.0.0.1:$2" >"$3/uart.log" 2>&1 &
    qemu_pids+=($!)
    local i
    for i in $(seq 150); do grep -q "$4" "$3/uart.log" && return 0; sleep 0.1; done
    cat "$3/uart.log" >&2
    fail "QEMU on port $2 never printed '$4'"
}
stop_gdbstubs() {
    local p
    for p in "${qemu_pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    qemu_pids=()
}
calls_of() { "$MCUPROF" info --json "$1" | jq -r .counters.total_calls; }
chk_pull_image() {
    ok_run
    [ "$(calls_of "$work/mcuprof.img")" = "$(calls_of "$work/idle/mcuprof.img")" ] ||
        fail "$key: the pulled image's calls differ from the firmware's own dump"
}
chk_pull_gmon() {
    rm -f "$work/gmon.out"
    ok_run
    [ "$(calls_of "$work/gmon.out")" = "$(calls_of "$work/idle/mcuprof.img")" ] || fail "$key: gmon.out's calls"
}
chk_pull_2331() {
    start_gdbstub "$IDLE" 2331 "$work/idle2331" "pull_idle: ready"
    rm -f "$work/gmon.out"
    ok_run
    [ "$(calls_of "$work/gmon.out")" = "$(calls_of "$work/idle/mcuprof.img")" ] || fail "$key: gmon.out's calls"
}
chk_gdb_dump() {
    rm -f "$work/mcuprof.img"
    cmd="gdb-multiarch -batch -nx app.elf -ex 'target remote localhost:3333' -ex '${cmd#(gdb) }' -ex detach" ok_run
    [ "$(calls_of "$work/mcuprof.img")" = "$(calls_of "$work/idle/mcuprof.img")" ] || fail "$key: the dump's calls"
}
chk_pull_after_ctl() {
    rm -f "$work/gmon.out"
    ok_run
    [ "$("$MCUPROF" info --json "$work/gmon.out" | jq -r .counters.total_calls)" -gt 0 ] || fail "$key: no calls"
}
chk_web_8080() {
    (cd "$work" && "$MCUPROF" convert "$qemu_dir/arm/mcuprof.img" --elf "$DEMO" --format pprof 2>/dev/null)
    web "$work"
    [ "$(cat "$work/web/url")" = http://localhost:8080 ] || fail "$key: served on $(cat "$work/web/url")"
    has "$work/web/top.html" 'hot_a' "the web UI's Top has no hot_a"
}

