# board.cmake - read by mcuprof_board_load(); see boards/README.md.
set(_mcuprof_board_dir ${CMAKE_CURRENT_LIST_DIR})
include(${CMAKE_CURRENT_LIST_DIR}/../common/riscv/board-common.cmake)
