# board-common.cmake - the variables every Cortex-M board.cmake sets, for the
# board whose directory is _mcuprof_board_dir. Included by board.cmake.
set(MCUPROF_BOARD_ARCH cortex-m)
set(_mcuprof_arch_dir ${CMAKE_CURRENT_LIST_DIR})
set(_mcuprof_arch_startup ${CMAKE_CURRENT_LIST_DIR}/startup.c)
# the console and clock of a board without board.c: the MPS2 boards' CMSDK
# UART and timer
set(_mcuprof_arch_console ${CMAKE_CURRENT_LIST_DIR}/cmsdk_uart.c
    ${CMAKE_CURRENT_LIST_DIR}/cmsdk_timer.c)
# For the board sources only (PRIVATE): the board, not the firmware, owns
# IRQ<BOARD_SWI_IRQ>_Handler and calls the firmware's board_swi_handler().
set(MCUPROF_BOARD_DEFINITIONS BOARD_SWI_HANDLER_IN_BOARD)
include(${CMAKE_CURRENT_LIST_DIR}/../board-common.cmake)
