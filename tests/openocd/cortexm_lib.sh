# shellcheck shell=bash disable=SC2034 # sets variables for the scripts that source it
# cortexm_lib.sh - shared by the cortex_m tests (sourced after lib.sh):
#   start_cortexm BOARD ELF WORKDIR [FIXTURE OPTIONS]
#       the firmware under QEMU on BOARD, and a dap_fixture on its gdbstub;
#       sets work, log (OpenOCD's log) and counter: the address of the
#       image's samples_taken, which the firmware's sampler keeps counting

start_cortexm() { # BOARD ELF WORKDIR [FIXTURE OPTIONS]
    local board=$1 elf=$2 image links_off
    work=$3
    shift 3
    rm -rf "$work"
    mkdir -p "$work"
    start_qemu "$board" "$elf" "$work" "pull_idle: ready"
    [ -s "$work/mcuprof.img" ] || fail "no semihosting dump"
    start_fixture "$@"
    log=$work/openocd.log
    image=$(info_json "$work/mcuprof.img" .header.image_addr)
    # samples_taken: the word before links_offset in struct mcuprof_header.
    links_off=$(awk '$2 == "MCUPROF_OFF_LINKS_OFFSET" { print $3 }' \
        "$(dirname "${BASH_SOURCE[0]}")/../../include/mcuprof/image.h")
    counter=$(printf '0x%08x' $((image + links_off - 4)))
}
