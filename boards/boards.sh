# boards.sh - the boards for shell scripts (sourced, bash), read from their
# directories as boards/boards.cmake reads them for CMake: a board is a
# directory boards/NAME with a qemu.conf (its manifest, see boards/README.md).
#
#   mcuprof_boards            the board names, sorted, one per line
#   mcuprof_board_load NAME   sets, for board NAME:
#     BOARD_NAME, BOARD_DIR, BOARD_ARCH, ARCH_DIR (boards/common/<arch>),
#     RUNTIME_ARCH_DIR (target/<arch>: the runtime's semihosting trap),
#     TOOL_PREFIX, QEMU_BIN, QEMU_MACHINE, QEMU_CPU, QEMU_EXTRA,
#     QEMU_ICOUNT_SHIFT, BOARD_CORE (qemu.conf over the arch's arch.conf),
#     the arrays BOARD_CPU_FLAGS (cpu.flags), BOARD_SOURCE_FILES (startup
#     and board support, absolute) and BOARD_DEFINES (-D... for compiling
#     the board sources); or prints "unknown board" with the known ones on
#     stderr and returns 2.
MCUPROF_BOARDS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

mcuprof_boards() {
    local conf
    for conf in "$MCUPROF_BOARDS_DIR"/*/qemu.conf; do
        [ -f "$conf" ] || continue
        conf=${conf%/qemu.conf}
        [ "${conf##*/}" = common ] || echo "${conf##*/}"
    done | LC_ALL=C sort
}

mcuprof_board_load() {
    local name=$1 f
    BOARD_NAME=$name
    BOARD_DIR=$MCUPROF_BOARDS_DIR/$name
    if [ -z "$name" ] || [ "$name" = common ] || [ ! -f "$BOARD_DIR/qemu.conf" ]; then
        echo "${0##*/}: unknown board '$name'; known boards: $(mcuprof_boards | tr '\n' ' ')" >&2
        return 2
    fi
    BOARD_ARCH= TOOL_PREFIX= QEMU_BIN= QEMU_MACHINE= QEMU_CPU= QEMU_EXTRA=
    QEMU_ICOUNT_SHIFT= BOARD_CORE= BOARD_SOURCES= ARCH_SOURCES= ARCH_DEFINITIONS=
    ARCH_BOARD_SOURCES=
    # shellcheck source=/dev/null
    . "$BOARD_DIR/qemu.conf"
    ARCH_DIR=$MCUPROF_BOARDS_DIR/common/$BOARD_ARCH
    if [ -z "$BOARD_ARCH" ] || [ ! -f "$ARCH_DIR/arch.conf" ]; then
        echo "${0##*/}: $BOARD_DIR/qemu.conf: BOARD_ARCH '$BOARD_ARCH' is not an architecture of $MCUPROF_BOARDS_DIR/common" >&2
        return 2
    fi
    RUNTIME_ARCH_DIR=$(cd "$MCUPROF_BOARDS_DIR/../target/$BOARD_ARCH" && pwd)
    # the architecture's defaults, then the board's own values over them
    # shellcheck source=/dev/null
    . "$ARCH_DIR/arch.conf"
    # shellcheck source=/dev/null
    . "$BOARD_DIR/qemu.conf"

    BOARD_CPU_FLAGS=()
    while IFS= read -r f; do
        [ -n "$f" ] && BOARD_CPU_FLAGS+=("$f")
    done <"$BOARD_DIR/cpu.flags"
    if [ -z "$BOARD_SOURCES" ]; then
        if [ -f "$BOARD_DIR/board.c" ]; then
            BOARD_SOURCES=board.c
        else
            BOARD_SOURCES=$ARCH_BOARD_SOURCES
        fi
    fi
    BOARD_SOURCE_FILES=()
    for f in $ARCH_SOURCES; do BOARD_SOURCE_FILES+=("$ARCH_DIR/$f"); done
    BOARD_SOURCE_FILES+=("$MCUPROF_BOARDS_DIR/common/console.c")
    for f in $BOARD_SOURCES; do BOARD_SOURCE_FILES+=("$BOARD_DIR/$f"); done
    BOARD_DEFINES=()
    for f in $ARCH_DEFINITIONS; do BOARD_DEFINES+=("-D$f"); done
}
