# board-common.cmake - the variables every RISC-V board.cmake sets, for the
# board whose directory is _mcuprof_board_dir. Included by board.cmake.
# startup.S is assembly: the project needs enable_language(ASM) (or
# LANGUAGES C ASM).
set(MCUPROF_BOARD_ARCH riscv)
set(_mcuprof_arch_dir ${CMAKE_CURRENT_LIST_DIR})
set(_mcuprof_arch_startup ${CMAKE_CURRENT_LIST_DIR}/startup.S)
# the console and halt of a board without board.c: QEMU virt's
set(_mcuprof_arch_console ${CMAKE_CURRENT_LIST_DIR}/qemu_virt.c)
set(MCUPROF_BOARD_DEFINITIONS "")
include(${CMAKE_CURRENT_LIST_DIR}/../board-common.cmake)
