#!/usr/bin/env bash
# doc_commands.sh GROUP WORKDIR - every command line README.md and docs/
# show in a fenced code block (doc_commands.awk finds them) does what the
# text next to it says, run as written on real firmware under QEMU.
#   list     every command line shown is in the table below, run or not
#            run with a reason, and every entry of the table is still shown
#   qemu     the QEMU command lines of docs/pulling.md, run on the demo
#            (mps2-an385 and riscv32-virt) and on the demo built with
#            PATHS: their images are what the other groups read
#   default  the commands on the demo of the default build, in
#            WORKDIR/default holding app.elf, firmware.elf, fw.elf,
#            demo.elf and mcuprof.img as the docs name them
#   paths    the commands the docs show with a PATHS build, on the demo
#            built with PATHS 64
#   target   pull, ctl, GDB and the web UI on a fixed port, against QEMU's
#            gdbstub on the ports the docs name, in a network namespace of
#            its own (unshare -n; skipped, exit 77, where it cannot make one)
# A command runs through bash in the group's directory, with `mcuprof` on
# the PATH; the table names the check that reads what it did. A command
# line changed in a doc, or one added, fails `list` until the table (and
# the check) says what it claims.
# Environment: MCUPROF, DEMO (demo.elf, mps2-an385), DEMO_RV (riscv32-virt,
# optional), DEMO_PATHS, IDLE (pull_idle.elf), LOOP (ctl_loop.elf).
set -euo pipefail
group=$1
work=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
qemu_dir=$(dirname "$work")/qemu

fail() {
    echo "doc_commands $group: FAIL: $*" >&2
    exit 1
}

# The table: GROUP :: CHECK :: the command as shown, then " # " and its
# comment when it has one. GROUP "not run" gives the reason instead of a
# check. A key "§FILE#SECTION" stands for every command of that section.
table() {
    cat <<'EOF'
qemu :: qemu_arm :: qemu-system-arm -machine mps2-an385 -nographic -monitor none -serial stdio -icount shift=5,align=off,sleep=off -semihosting-config enable=on,target=native -kernel app.elf
qemu :: qemu_rv :: qemu-system-riscv32 -machine virt -cpu rv32 -bios none -m 128M -nographic -monitor none -serial stdio -icount shift=5,align=off,sleep=off -semihosting-config enable=on,target=native -kernel app.elf
default :: gmon :: mcuprof convert mcuprof.img -o gmon.out # GNU tagged gmon.out (--format bsd: BSD 4.4)
default :: gprof :: arm-none-eabi-gprof -b app.elf gmon.out # flat profile and call graph (riscv64-unknown-elf-gprof for RISC-V, RV32 too)
default :: info_elf :: mcuprof info mcuprof.img --elf app.elf # what was lost, and how far to trust the time
default :: files_named :: mcuprof convert mcuprof.img --elf app.elf --format gnu,pprof,callgrind,dot,json # gmon.out, mcuprof.pb.gz, callgrind.out.mcuprof, mcuprof.dot, mcuprof.json
default :: web_default :: go tool pprof -http=: app.elf mcuprof.pb.gz # time by function and source line (golang-go); the call graph under Sample > calls; a flame graph needs PATHS
default :: dot_sized :: dot -Tsvg mcuprof.dot -o callgraph.svg # nodes sized by time, edges with exact counts
default :: report_lines :: mcuprof report mcuprof.img --elf app.elf --lines # flat profile, call graph, hottest lines; no gprof
default :: diff :: mcuprof diff before.img after.img --elf-a before.elf --elf-b after.elf --fail-share 1
default :: order :: mcuprof convert mcuprof.img --elf app.elf --format order # functions in first-call order, for the linker
default :: info_json :: mcuprof info mcuprof.img --json # everything, for scripts
default :: check :: mcuprof check app.elf
default :: synopsis :: mcuprof ctl start|stop|reset|status [--gdb HOST:PORT | --openocd HOST:PORT] (--elf FILE | --address ADDR) [--halt] [--timeout S] [--force]
default :: synopsis :: mcuprof diff A B [--elf ELF | --elf-a ELF --elf-b ELF] [--fail-calls N|PCT%] [--fail-share POINTS] [--fail-time PCT] [--alpha P] [--top N]
default :: synopsis :: mcuprof report IMAGE --elf ELF [--top N] [--function REGEX] [--lines] [--no-graph] [--force] [--warn PCT] [--shared-threshold PCT] [--min-samples N]
default :: transcript :: mcuprof report mcuprof.img --elf demo.elf --top 3 --no-graph --lines
default :: transcript :: mcuprof info build/demo-mps2-an385/mcuprof.img --elf build/demo-mps2-an385/demo.elf --top 6
default :: callgrind :: mcuprof convert mcuprof.img --elf firmware.elf --format callgrind
default :: annotate_self :: callgrind_annotate callgrind.out.mcuprof # self samples
default :: annotate_incl :: callgrind_annotate --inclusive=yes callgrind.out.mcuprof # with callees
default :: dot_file :: mcuprof convert mcuprof.img --elf firmware.elf --format dot
default :: svg :: dot -Tsvg mcuprof.dot -o callgraph.svg
default :: folded_refused :: mcuprof convert mcuprof.img --elf firmware.elf --format folded
default :: json_file :: mcuprof convert mcuprof.img --elf firmware.elf --format json # mcuprof.json
default :: json_same :: mcuprof info mcuprof.img --json [--elf firmware.elf] # the same, on stdout
default :: jq_top :: jq '.functions | sort_by(-.self) | .[:5][] | {name, self}' mcuprof.json
default :: jq_sum :: jq '[.arcs[] | select(.callee_name == "crc32") | .count] | add' mcuprof.json
default :: jq_addr :: jq -r '.header.image_addr' mcuprof.json # where to pull it from
default :: jq_frozen :: jq -e '.header.state_flags | index("frozen")' mcuprof.json # left frozen?
default :: order_file :: mcuprof convert mcuprof.img --elf fw.elf --format order:mcuprof_order.ld
default :: pprof_file :: mcuprof convert mcuprof.img --elf firmware.elf --format pprof
default :: pprof_top :: go tool pprof -top mcuprof.pb.gz # flat profile
default :: pprof_calls :: go tool pprof -sample_index=calls -top mcuprof.pb.gz # calls per function
default :: pprof_peek :: go tool pprof -sample_index=calls -peek 'shared_mid' mcuprof.pb.gz
default :: pprof_list :: go tool pprof -list 'hot_a' mcuprof.pb.gz # samples per source line
default :: pprof_comments :: go tool pprof -comments mcuprof.pb.gz # what was lost
default :: pprof_noelf :: mcuprof convert mcuprof.img --format pprof
default :: pprof_top :: go tool pprof -top firmware.elf mcuprof.pb.gz
paths :: folded :: mcuprof convert mcuprof.img --elf app.elf --format folded # flamegraph.pl mcuprof.folded > flame.svg
paths :: web_paths :: mcuprof convert mcuprof.img --elf app.elf --format pprof # go tool pprof -http=: mcuprof.pb.gz
paths :: report_paths :: mcuprof report mcuprof.img --elf app.elf # "incl % (paths)" next to gprof's
paths :: folded :: mcuprof convert mcuprof.img --elf firmware.elf --format folded
target :: pull_image :: mcuprof pull --elf app.elf --image mcuprof.img # GDB server on localhost:3333 (OpenOCD, pyOCD)
target :: pull_gmon :: mcuprof pull --elf app.elf # GDB server on localhost:3333 (OpenOCD, pyOCD)
target :: pull_2331 :: mcuprof pull --gdb localhost:2331 --elf app.elf # J-Link GDB server; QEMU: -gdb tcp::PORT
target :: gdb_dump :: (gdb) dump binary memory mcuprof.img &__mcuprof_start &__mcuprof_end
target :: transcript :: mcuprof ctl stop --gdb localhost:3333 --elf app.elf # nothing is counted from here
target :: transcript :: mcuprof ctl reset --gdb localhost:3333 --elf app.elf # forget the start-up
target :: transcript :: mcuprof ctl start --gdb localhost:3333 --elf app.elf # then trigger the phase
target :: transcript :: mcuprof ctl stop --gdb localhost:3333 --elf app.elf
target :: pull_after_ctl :: mcuprof pull --gdb localhost:3333 --elf app.elf -o gmon.out
target :: transcript :: mcuprof ctl status --gdb localhost:3333 --elf app.elf
target :: web_8080 :: go tool pprof -http=localhost:8080 mcuprof.pb.gz # web UI
not run :: builds the host tool and the demo in build/ (minutes); its steps run here: the demo under QEMU (docs/pulling.md's line), convert, and gprof's report, whose shares the Quick start quotes (check "gprof") :: bash ci/qemu/demo.sh # build, run the demo under QEMU, show gprof's report
not run :: the whole test suite, of which this test is a part :: bash ci/test.sh # build everything and run the whole test suite
not run :: a GUI; callgrind_annotate reads the same file here :: kcachegrind callgrind.out.mcuprof # or callgrind_annotate (valgrind)
not run :: a GUI; callgrind_annotate reads the same file here :: kcachegrind callgrind.out.mcuprof
not run :: not packaged by Debian; the folded lines it reads are checked here (check "folded") :: flamegraph.pl mcuprof.folded > flame.svg
not run :: needs OpenOCD attached to a part; openocd.jtag.* run pull --openocd against the real OpenOCD over the JTAG fixture :: mcuprof pull --openocd localhost:6666 --elf app.elf -o gmon.out
not run :: "host" and the address stand for the reader's own; pull.qemu.idle pulls by --address from QEMU :: mcuprof pull --gdb host:3333 --address 0x20000010 --image mcuprof.img # raw image, no ELF
not run :: builds the host tool in the current directory (minutes); every build of the kit does it :: cmake -S . -B build -DBUILD_TESTING=OFF && cmake --build build --target mcuprof
not run :: configures, builds and installs the kit (minutes); e2e.installed_package installs it and builds a project with find_package :: cmake -S mcuprof -B mcuprof/build -DBUILD_TESTING=OFF
not run :: as above :: cmake --build mcuprof/build
not run :: as above, into /opt :: cmake --install mcuprof/build --prefix /opt/mcuprof
not run :: as above: e2e.installed_package :: cmake -S . -B build -DCMAKE_PREFIX_PATH=/opt/mcuprof -DCMAKE_TOOLCHAIN_FILE=/opt/mcuprof/share/mcuprof/cmake/toolchain-arm-none-eabi.cmake
not run :: e2e.readme_recipe.cortex-m and e2e.readme_recipe.riscv run these blocks as written :: §docs/instrumenting.md#Without CMake
not run :: the benchmark (minutes); bench/run.sh :: §docs/paths.md#What it costs
EOF
}

# The table's entries: "GROUP\tCHECK\tKEY".
entries() {
    table | awk -F ' :: ' '!/^#/ && NF >= 3 { k = $3; for (i = 4; i <= NF; i++) k = k " :: " $i; print $1 "\t" $2 "\t" k }'
}

# The commands the docs show: "FILE\tLINE\tSECTION\tKEY" (KEY: the command,
# then " # " and its comment when it has one).
shown() {
    (cd "$repo" && awk -f "$here/doc_commands.awk" README.md docs/*.md docs/formats/*.md) |
        awk -F '\t' '{ print $1 "\t" $2 "\t" $3 "\t" $4 ($5 != "" ? " # " $5 : "") }'
}

in_column() { # N TEXT FILE: whether column N of the tab-separated FILE is TEXT on some line
    T=$2 awk -F '\t' -v n="$1" '$n == ENVIRON["T"] { f = 1; exit } END { exit !f }' "$3"
}

group_list() {
    local bad=0 n=0 file line sect key
    shown >"$work/shown"
    entries >"$work/entries"
    while IFS=$'\t' read -r file line sect key; do
        n=$((n + 1))
        if ! in_column 3 "$key" "$work/entries" && ! in_column 3 "§$file#$sect" "$work/entries"; then
            echo "$file:$line: not in tests/docs/doc_commands.sh's table (run it with a check, or say why not): $key" >&2
            bad=1
        fi
    done <"$work/shown"
    while IFS=$'\t' read -r _ _ key; do
        if [[ $key == §* ]]; then
            awk -F '\t' -v k="$key" '"§" $1 "#" $3 == k { f = 1 } END { exit !f }' "$work/shown"
        else
            in_column 4 "$key" "$work/shown"
        fi || {
            echo "the table lists a command no doc shows any more: $key" >&2
            bad=1
        }
    done <"$work/entries"
    [ "$bad" -eq 0 ] || fail "the docs' command lines and the table differ (above)"
    echo "ok   $n command lines shown in README.md and docs/: $(grep -c $'^[a-z]*\t' "$work/entries") run with a check, $(grep -c $'^not run\t' "$work/entries") not run, each with its reason"
}

# --- running a command as shown --------------------------------------------

bin=$work/bin
out= err= rc=

# doc_run [DIR]: the current command ($cmd) in DIR (default: the group's
# directory) through bash; its stdout, stderr and exit status in
# $out, $err, $rc.
doc_run() {
    local dir=${1:-$work}
    out=$work/out.txt err=$work/err.txt rc=0
    (cd "$dir" && PATH=$bin:$PATH timeout 60 bash -c "$cmd") >"$out" 2>"$err" || rc=$?
}
expect_rc() {
    [ "$rc" -eq "$1" ] || { cat "$out" "$err" >&2; fail "$key: exit $rc, expected $1"; }
}
ok_run() { doc_run "$@"; expect_rc 0; }
has() { # FILE ERE WHAT
    grep -Eq -- "$2" "$1" || { head -40 "$1" >&2; fail "$key: $3 (no /$2/ in $(basename "$1"), above)"; }
}
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }

# shape DOCFILE DOCLINE ACTUAL: the output a doc prints under a "$ "
# command (up to the next prompt or the end of its block), numbers,
# paths, build-ids and ELF names left free, appears line by line, in
# order, in ACTUAL; "..." stands for what the doc leaves out (a line of
# its own: lines).
shape() {
    awk -v n="$2" 'NR > n { if (/^\$ / || /^[ \t]*```/) exit; print }' "$repo/$1" >"$work/doc_out"
    awk '
        NR == FNR {
            if ($0 ~ /^[ \t]*\.\.\.[ \t]*$/ || $0 ~ /^[ \t]*$/) next
            # placeholders first, so no replacement is read as text again
            r = $0
            gsub(/\.\.\./, "\005", r)
            gsub(/[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+/, "\006", r)
            gsub(/\/[^ :)]+/, "\001", r)
            gsub(/[A-Za-z0-9_-]+\.elf/, "\002", r)
            gsub(/0x[0-9a-f]+/, "\003", r)
            gsub(/[0-9]+(\.[0-9]+)?/, "\004", r)
            gsub(/[][\\.^$*+?(){}|]/, "\\\\&", r)
            gsub(/ +/, " +", r)
            gsub(/\001/, "[^ :)]+", r)
            gsub(/\002/, "[^ ;,]+[.]elf", r)
            gsub(/\003/, "0x[0-9a-f]+", r)
            gsub(/\004/, "[0-9.]+", r)
            gsub(/\005/, ".*", r)
            gsub(/\006/, "[0-9a-f]+", r)
            want[++n] = "^" r
            next
        }
        i < n && $0 ~ want[i + 1] { i++ }
        END { if (i < n) { print "the doc line matching /" want[i + 1] "/ is not in the output"; exit 1 } }
    ' "$work/doc_out" "$3" >"$work/shape.txt" || { cat "$3" >&2; fail "$key ($1:$2): $(cat "$work/shape.txt")"; }
}

# --- the web UI (go tool pprof -http) ----------------------------------------

# web CMD_DIR: run $cmd (a `go tool pprof -http=...`), whose BROWSER fetches
# the pages the checks read into $work/web/*.html, then stop it.
web() {
    local dir=$1 pid i
    rm -rf "$work/web"
    mkdir -p "$work/web"
    cat >"$work/web/browser.sh" <<'EOS'
#!/bin/sh
# pprof opens the web UI with $BROWSER URL: save the pages instead
cd "$(dirname "$0")"
for p in top flamegraph "source?f=hot_a" "?si=samples" "?si=calls"; do
    curl -sfL "$1/ui/$p" >"$(echo "$p" | tr -c 'a-z\n' _).html" || exit 1
done
echo "$1" >url
EOS
    chmod +x "$work/web/browser.sh"
    (cd "$dir" && BROWSER=$work/web/browser.sh PATH=$bin:$PATH exec setsid bash -c "$cmd") \
        >"$work/web/out.txt" 2>"$work/web/err.txt" &
    pid=$!
    for i in $(seq 300); do
        [ -s "$work/web/url" ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -- -"$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    [ -s "$work/web/url" ] || { cat "$work/web/err.txt" >&2; fail "$key: the web UI never served its pages"; }
}
# The depth of the flame graph the web UI drew (frames under its root).
flame_depth() {
    grep -o 'JSON.parse("[^"]*")' "$work/web/flamegraph.html" | sed 's/^JSON.parse(//; s/)$//' |
        jq -r . | jq 'def d: 1 + ([(.c // [])[] | d] | max // 0); d - 1'
}
edges() { grep -c 'class="edge"' "$1" || true; }

# pprof's stacks (-traces): the deepest, in frames.
trace_depth() {
    awk '/^-----------/ { if (d > m) m = d; d = 0; next } /^ +[0-9]/ { d = 1; next } d && NF == 1 { d++ } END { print m + 0 }' "$1"
}

# --- the checks ---------------------------------------------------------------

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
    cmd=${cmd% --format bsd}
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
    # fib calls itself 464 times (the demo's EXPECT, and gprof's 1+464)
    has "$work/mcuprof.dot" '-> f[0-9]+ \[label="464"' "no edge with fib's exact recursive count"
    [ "$(jq '[.arcs[] | select(.caller == "fib" and .callee_name == "fib") | .count] | add' "$work/mcuprof.json")" = 464 ] ||
        fail "$key: the JSON does not hold fib -> fib 464"
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
    if grep -q ' fails --fail-share' "$out"; then expect_rc 3; else expect_rc 0; fi
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
    local f=$1
    awk 'NR > 0' "$f" >"$work/shape_doc.md"
    { echo '```'; cat "$work/shape_doc.md"; echo '```'; } >"$work/shape_doc.md.tmp"
    mv "$work/shape_doc.md.tmp" "$work/shape_doc.md"
    local saved=$repo
    repo=$work shape shape_doc.md 1 "$2"
    repo=$saved
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
chk_transcript() {
    mkdir -p "$work/build/demo-mps2-an385"
    cp "$DEMO" "$work/build/demo-mps2-an385/demo.elf"
    cp "$work/mcuprof.img" "$work/build/demo-mps2-an385/mcuprof.img"
    ok_run
    shape "$first_file" "$first_line" "$out"
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
chk_json_same() {
    cmd=${cmd/ \[--elf firmware.elf\]/} ok_run
    jq -S 'del(.elf, .functions, .lines)' "$out" >"$work/a.json"
    cmd="${cmd/ \[--elf firmware.elf\]/} --elf firmware.elf" ok_run
    jq -S . "$out" >"$work/b.json"
    jq -S . "$work/mcuprof.json" >"$work/c.json"
    cmp -s "$work/b.json" "$work/c.json" || fail "$key: info --json --elf and mcuprof.json differ"
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

# --- the groups ----------------------------------------------------------------

run_group() { # GROUP: each of its entries in table order
    local n=0 c
    while IFS=$'\t' read -r _ c key; do
        cmd=${key%% # *}
        comment=
        [[ $key == *' # '* ]] && comment=${key#* # }
        first_file=$(K=$key awk -F '\t' '$4 == ENVIRON["K"] { print $1; exit }' "$work/shown")
        first_line=$(K=$key awk -F '\t' '$4 == ENVIRON["K"] { print $2; exit }' "$work/shown")
        [ -n "$first_file" ] || fail "no doc shows: $key (docs.commands.list says more)"
        "chk_$c"
        echo "ok   $first_file:$first_line: $key"
        n=$((n + 1))
    done < <(awk -F '\t' -v g="$1" '$1 == g' "$work/entries")
    echo "ok   $1: $n command lines do what the docs say"
}

setup() {
    rm -rf "$work"
    mkdir -p "$work" "$bin"
    ln -s "$MCUPROF" "$bin/mcuprof"
    shown >"$work/shown"
    entries >"$work/entries"
    # go wants a writable home and cache, and must never fetch anything
    export HOME=$work/home GOCACHE=$work/home/gocache GOPATH=$work/home/go GOFLAGS= \
        GOTOOLCHAIN=local GOPROXY=off GOTELEMETRY=off PPROF_TMPDIR=$work/home
    mkdir -p "$HOME"
}

from_qemu() { # DIR: the image of the qemu group's DIR, and the ELF under every name the docs use
    [ -s "$qemu_dir/$1/mcuprof.img" ] || fail "no $qemu_dir/$1/mcuprof.img: run docs.commands.qemu first"
    cp "$qemu_dir/$1/mcuprof.img" "$work/"
    local n
    for n in app.elf firmware.elf fw.elf demo.elf; do cp "$qemu_dir/$1/app.elf" "$work/$n"; done
}

: "${MCUPROF:?}"
case $group in
list)
    rm -rf "$work"
    mkdir -p "$work"
    group_list
    ;;
qemu)
    : "${DEMO:?}" "${DEMO_PATHS:?}"
    setup
    run_group qemu
    ;;
default)
    : "${DEMO:?}" "${DEMO_PATHS:?}"
    setup
    from_qemu arm
    run_group default
    ;;
paths)
    setup
    from_qemu paths
    run_group paths
    ;;
target)
    : "${IDLE:?}" "${LOOP:?}" "${DEMO:?}"
    if [ "${DOC_COMMANDS_NETNS:-}" != 1 ]; then
        unshare -n true 2>/dev/null || { echo "skip: cannot make a network namespace (unshare -n) for the docs' fixed ports"; exit 77; }
        exec unshare -n env DOC_COMMANDS_NETNS=1 bash "$0" "$@"
    fi
    ip link set lo up
    setup
    trap stop_gdbstubs EXIT
    cp "$IDLE" "$work/app.elf"
    start_gdbstub "$IDLE" 3333 "$work/idle" "pull_idle: ready"
    awk -F '\t' '$1 == "target" && $2 ~ /^(pull_image|pull_gmon|pull_2331|gdb_dump)$/' "$work/entries" >"$work/entries.pull"
    awk -F '\t' '$1 == "target" && $2 !~ /^(pull_image|pull_gmon|pull_2331|gdb_dump)$/' "$work/entries" >"$work/entries.ctl"
    awk -F '\t' '{ $1 = "pull"; print }' OFS='\t' "$work/entries.pull" >"$work/entries"
    awk -F '\t' '{ $1 = "ctl"; print }' OFS='\t' "$work/entries.ctl" >>"$work/entries"
    run_group pull
    stop_gdbstubs
    cp "$LOOP" "$work/app.elf"
    start_gdbstub "$LOOP" 3333 "$work/loop" "ctl_loop: running"
    run_group ctl
    ;;
*) fail "GROUP is list, qemu, default, paths or target" ;;
esac
