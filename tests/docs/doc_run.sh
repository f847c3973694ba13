# doc_run.sh - sourced by doc_commands.sh: how a command the docs show is
# run and what its checks (doc_checks.sh) read it with.
#   doc_run [DIR]      run $cmd as shown, through bash, in DIR (default
#                      $work) with mcuprof on the PATH: $out, $err, $rc
#   ok_run, expect_rc, has, within   exit status, a pattern, a tolerance
#   shape, shape_files the output a doc prints, numbers and paths free
#   web DIR            a `go tool pprof -http` command, its pages saved
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

