# boards.cmake - mcuprof_board_load(NAME) reads boards/NAME/board.cmake and
# sets, in the caller's scope:
#   MCUPROF_BOARD_NAME, MCUPROF_BOARD_DIR
#   MCUPROF_BOARD_ARCH           cortex-m or riscv
#   MCUPROF_BOARD_CPU_FLAGS      compile and link flags (a list)
#   MCUPROF_BOARD_SOURCES        startup and board support (absolute paths)
#   MCUPROF_BOARD_DEFINITIONS    preprocessor definitions for compiling
#                                MCUPROF_BOARD_SOURCES (a list, NAME or
#                                NAME=VALUE, for target_compile_definitions)
#   MCUPROF_BOARD_INCLUDE_DIRS   for board.h and board_config.h
#   MCUPROF_BOARD_LINKER_SCRIPT  memory.ld (pass with -T)
#   MCUPROF_BOARD_LINKER_DIRS    for -L, so its INCLUDEs are found
# An unknown name stops with the list of known boards.
set(MCUPROF_BOARDS_DIR ${CMAKE_CURRENT_LIST_DIR})

function(mcuprof_board_load NAME)
  if(NAME STREQUAL "" OR NOT EXISTS ${MCUPROF_BOARDS_DIR}/${NAME}/board.cmake)
    file(GLOB known RELATIVE ${MCUPROF_BOARDS_DIR}
         ${MCUPROF_BOARDS_DIR}/*/board.cmake)
    list(TRANSFORM known REPLACE "/board.cmake$" "")
    list(SORT known)
    list(JOIN known ", " known)
    message(FATAL_ERROR
            "mcuprof: unknown board '${NAME}'; known boards: ${known}")
  endif()
  include(${MCUPROF_BOARDS_DIR}/${NAME}/board.cmake)
  set(MCUPROF_BOARD_NAME ${NAME} PARENT_SCOPE)
  set(MCUPROF_BOARD_DIR ${MCUPROF_BOARDS_DIR}/${NAME} PARENT_SCOPE)
  foreach(var ARCH CPU_FLAGS SOURCES DEFINITIONS INCLUDE_DIRS LINKER_SCRIPT LINKER_DIRS)
    set(MCUPROF_BOARD_${var} "${MCUPROF_BOARD_${var}}" PARENT_SCOPE)
  endforeach()
endfunction()
