# lib.sh - what the Windows tests share. The environment (windows/CMakeLists.txt):
#   MCUPROF      the Linux build of the tool
#   MCUPROF_EXE  the Windows build (mcuprof.exe), run under $WINE
#   WINE, WINEPREFIX, WINEDEBUG
# Wine gives a Windows program a Unix absolute path's file through drive Z:,
# which is also the current drive, so the same arguments reach both builds.
fail() { echo "FAIL $test_name: $*" >&2; exit 1; }
# win ARGS...: the Windows build, as a user runs it; its exit status
win() { "$WINE" "$MCUPROF_EXE" "$@"; }
# same_run NAME ARGS...: both builds on ARGS (run in $work/lin, $work/win),
# the same exit status, the same stdout and stderr (with "mcuprof.exe"
# spelled "mcuprof", temporary names as .tmpXXXXXX), and the same bytes in
# every file written. Output
# file names in ARGS are relative, so each build writes into its folder.
# With lines_may_differ set, a Windows run that warns it lacks libdw (for
# source lines and source files) needs only the same exit status.
same_run() {
    local name=$1; shift
    local l=$work/lin/$name w=$work/win/$name rc_l=0 rc_w=0
    rm -rf "$l" "$w"
    mkdir -p "$l" "$w"
    (cd "$l" && "$MCUPROF" "$@" >stdout 2>stderr) || rc_l=$?
    (cd "$w" && win "$@" >stdout 2>stderr) || rc_w=$?
    if [ "$rc_w" != 0 ] && [ ! -s "$w/stderr" ]; then
        # The tool never fails without a line on stderr; under a loaded
        # Wine a run has been seen to end so (exit 1, no word, once in
        # three full suites). Run again once, and count it in the summary.
        echo "windows: $name: exit $rc_w without a word from the Windows build: run again" >&2
        rm -rf "$w" && mkdir -p "$w"
        rc_w=0
        (cd "$w" && win "$@" >stdout 2>stderr) || rc_w=$?
        silent_retries=$((${silent_retries:-0} + 1))
    fi
    sed -i 's/mcuprof\.exe/mcuprof/g' "$w/stdout" "$w/stderr"
    # a temporary file's name is random on every run
    sed -i 's/\.tmp[A-Za-z0-9]\{6\}/.tmpXXXXXX/g' "$l/stderr" "$w/stderr"
    [ "$rc_l" = "$rc_w" ] || { cat "$l/stderr" "$w/stderr"; fail "$name: exit $rc_l on Linux, $rc_w on Windows: $*"; }
    if [ -n "${lines_may_differ:-}" ] && grep -q "which this build of mcuprof lacks (built without elfutils' libdw)" "$w/stderr"; then
        lacked=$((lacked + 1)) # said, and so may differ where it used them
        return 0
    fi
    diff -r "$l" "$w" >"$work/$name.diff" || { head -40 "$work/$name.diff"; fail "$name: the builds differ: $*"; }
    files=$((files + $(find "$l" -type f | wc -l)))
    runs=$((runs + 1))
}
