# board-common.cmake - the variables every Cortex-M board.cmake sets, for the
# board whose directory is _mcuprof_board_dir. Included by board.cmake.
set(_mcuprof_cm_dir ${CMAKE_CURRENT_LIST_DIR})
get_filename_component(_mcuprof_boards_dir ${_mcuprof_cm_dir}/../.. ABSOLUTE)

set(MCUPROF_BOARD_ARCH cortex-m)
# One flag per line; ci/qemu/build-smoke.sh reads the same file.
file(STRINGS ${_mcuprof_board_dir}/cpu.flags MCUPROF_BOARD_CPU_FLAGS)
# The console: the board's own board.c, or the CMSDK UART of the MPS2 boards.
set(_mcuprof_board_console ${_mcuprof_board_dir}/board.c)
if(NOT EXISTS ${_mcuprof_board_console})
  set(_mcuprof_board_console ${_mcuprof_cm_dir}/cmsdk_uart.c)
endif()
set(MCUPROF_BOARD_SOURCES
    ${_mcuprof_cm_dir}/startup.c
    ${_mcuprof_cm_dir}/board_common.c
    ${_mcuprof_board_console})
# board.h, the board's board_config.h, cortex_m.h
set(MCUPROF_BOARD_INCLUDE_DIRS
    ${_mcuprof_boards_dir}/include
    ${_mcuprof_board_dir}
    ${_mcuprof_cm_dir})
set(MCUPROF_BOARD_LINKER_SCRIPT ${_mcuprof_board_dir}/memory.ld)
set(MCUPROF_BOARD_LINKER_DIRS ${_mcuprof_board_dir} ${_mcuprof_cm_dir})
