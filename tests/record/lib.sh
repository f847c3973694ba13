# lib.sh - shared by the record tests (sourced).
#   fail TEXT                  "record.NAME: FAIL: TEXT", exit 1
#   summary_fields FILE        the summary line of stderr FILE as the fields
#                              WHERE, SECONDS, ENDED, SAMPLES, ARCS, LOST
#                              (numbers without their thousands commas)
#   qemu_of PID                the QEMU record PID started (its child), once
#                              it runs; sets qemu_pid
#   gone PID                   no such process any more
# Tools from the environment: MCUPROF, and jq.
: "${MCUPROF:?}"
test_name=${test_name:-record}
fail() {
    echo "$test_name: FAIL: $*" >&2
    exit 1
}
command -v jq >/dev/null || fail "jq not found (ci/install-deps.sh installs it)"

summary_fields() {
    local line
    line=$(grep '^mcuprof: record: ' "$1" | tail -1)
    [ -n "$line" ] || { cat "$1" >&2; fail "no summary line"; }
    # mcuprof: record: WHERE, ran S s, ENDED, N samples, M arcs, LOST
    [[ $line =~ ^mcuprof:\ record:\ (.*),\ ran\ ([0-9]+\.[0-9][0-9])\ s,\ (.*),\ ([0-9,]+)\ samples?,\ ([0-9,]+)\ arcs?,\ (.*)$ ]] ||
        fail "summary line not as documented: $line"
    WHERE=${BASH_REMATCH[1]}
    SECONDS_RUN=${BASH_REMATCH[2]}
    ENDED=${BASH_REMATCH[3]}
    SAMPLES=${BASH_REMATCH[4]//,/}
    ARCS=${BASH_REMATCH[5]//,/}
    LOST=${BASH_REMATCH[6]}
}

qemu_of() {
    local i
    qemu_pid=
    for i in $(seq 200); do
        qemu_pid=$(pgrep -P "$1" | head -1) && [ -n "$qemu_pid" ] && return 0
        sleep 0.02
    done
    fail "record started no QEMU"
}

gone() {
    local i
    # reaped by record before it exits: a zombie would still answer kill -0
    for i in $(seq 50); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.02
    done
    return 1
}

# The samples of image FILE as the summary counts them: every sampler
# period the shares are of, binned or lost (with the missed periods
# charged to the bins, more than samples_taken).
image_samples() {
    "$MCUPROF" info --json "$1" | jq '.counters | .binned + .lost.lost_samples_out_of_range +
        .lost.lost_samples_saturated + .lost.lost_samples_frozen'
}
