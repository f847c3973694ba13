# board-common.cmake - what every board.cmake sets, for the board whose
# directory is _mcuprof_board_dir. Included by the architecture's
# board-common.cmake after it set:
#   _mcuprof_arch_dir      boards/common/<arch>
#   _mcuprof_arch_startup  its startup source
#   _mcuprof_arch_console  the console (and clock) used when the board has no board.c
set(_mcuprof_boards_dir ${CMAKE_CURRENT_LIST_DIR}/..)
get_filename_component(_mcuprof_boards_dir ${_mcuprof_boards_dir} ABSOLUTE)

# One flag per line; ci/qemu/build-smoke.sh reads the same file.
file(STRINGS ${_mcuprof_board_dir}/cpu.flags MCUPROF_BOARD_CPU_FLAGS)
set(_mcuprof_board_console ${_mcuprof_board_dir}/board.c)
if(NOT EXISTS ${_mcuprof_board_console})
  set(_mcuprof_board_console ${_mcuprof_arch_console})
endif()
set(MCUPROF_BOARD_SOURCES
    ${_mcuprof_arch_startup}
    ${_mcuprof_arch_dir}/board_common.c
    ${_mcuprof_boards_dir}/common/console.c
    ${_mcuprof_board_console})
# board.h, the board's board_config.h, the architecture's headers
set(MCUPROF_BOARD_INCLUDE_DIRS
    ${_mcuprof_boards_dir}/include
    ${_mcuprof_board_dir}
    ${_mcuprof_arch_dir})
set(MCUPROF_BOARD_LINKER_SCRIPT ${_mcuprof_board_dir}/memory.ld)
set(MCUPROF_BOARD_LINKER_DIRS ${_mcuprof_board_dir} ${_mcuprof_arch_dir})
