# shellcheck shell=bash disable=SC2034 # sets variables for the scripts that source it
# cortexm_lib.sh - shared by the cortex_m tests (sourced after lib.sh):
#   start_cortexm BOARD ELF WORKDIR [FIXTURE OPTIONS]
#       the firmware under QEMU on BOARD, and a dap_fixture on its gdbstub;
#       sets work, log (OpenOCD's log) and counter: the address of the
#       image's samples_taken, which the firmware's sampler keeps counting
#   start_cortexm_path tcl|gdb ELF WORKDIR
#       the path of a board user: the firmware under QEMU on $OCD_BOARD, a
#       dap_fixture, and OpenOCD's cortex_m target with its Tcl port (tcl),
#       and its GDB server too (gdb); sets elf, work, image_addr, link
#       (--openocd or --gdb) and ep, the endpoint mcuprof is given
#   pull NAME ARGS...
#       mcuprof pull through that link and endpoint, --image NAME.img, its
#       errors in NAME.err; fails the test if it fails
#   g NAME COMMANDS...
#       gdb-multiarch ($GDB) on OpenOCD's GDB server at $ep with $elf, one
#       -ex a command; NAME.log keeps its output; fails the test if it fails

start_cortexm() { # BOARD ELF WORKDIR [FIXTURE OPTIONS]
    local board=$1 image links_off
    shift
    OCD_BOARD=$board start_target "$@"
    log=$work/openocd.log
    image=$(info_json "$work/mcuprof.img" .header.image_addr)
    # samples_taken: the word before links_offset in struct mcuprof_header.
    links_off=$(awk '$2 == "MCUPROF_OFF_LINKS_OFFSET" { print $3 }' \
        "$(dirname "${BASH_SOURCE[0]}")/../../include/mcuprof/image.h")
    counter=$(printf '0x%08x' $((image + links_off - 4)))
}

start_cortexm_path() { # tcl|gdb ELF WORKDIR
    elf=$2
    start_target "$elf" "$3"
    if [ "$1" = gdb ]; then
        start_ocd_gdb_server
        link=--gdb
        ep=127.0.0.1:$gdb_port
    else
        start_ocd_server
        link=--openocd
        ep=127.0.0.1:$tcl_port
    fi
    image_addr=$(info_json "$work/mcuprof.img" .header.image_addr)
}

pull() { # NAME ARGS...: mcuprof pull $link ... --image NAME.img
    local name=$1
    shift
    "$MCUPROF" pull "$link" "$ep" --elf "$elf" --timeout "$to" --image "$work/$name.img" "$@" 2>"$work/$name.err" ||
        { cat "$work/$name.err" >&2; fail "pull $link $* ($name) failed"; }
}

g() { # NAME COMMANDS...
    local name=$1 a=()
    shift
    for c in "$@"; do a+=(-ex "$c"); done
    timeout 60 "$GDB" -nx -batch -ex "set pagination off" -ex "file $elf" -ex "target extended-remote $ep" \
        "${a[@]}" >"$work/$name.log" 2>&1 || { cat "$work/$name.log" >&2; fail "gdb ($name) failed"; }
}
