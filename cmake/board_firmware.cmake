# board_firmware.cmake - build firmware for one of mcuprof's QEMU boards.
#
#   include(<mcuprof>/cmake/board_firmware.cmake)     # after project()
#   mcuprof_board_firmware(app.elf BOARD mps2-an385 SOURCES main.c ...)
#
# Creates the executable with the board's startup and console (compiled
# without -pg, in an object library shared by every firmware of the
# project), its CPU flags and linker script. Profiling is added separately
# with mcuprof_instrument(), exactly as a user's project would.
include(${CMAKE_CURRENT_LIST_DIR}/mcuprof.cmake)
include(${MCUPROF_ROOT}/boards/boards.cmake)

function(mcuprof_board_firmware target)
  cmake_parse_arguments(P "" "BOARD" "SOURCES" ${ARGN})
  mcuprof_board_load(${P_BOARD})
  set(board_lib mcuprof_board_${P_BOARD})
  if(NOT TARGET ${board_lib})
    add_library(${board_lib} OBJECT ${MCUPROF_BOARD_SOURCES})
    target_include_directories(${board_lib} PUBLIC ${MCUPROF_BOARD_INCLUDE_DIRS})
    target_compile_definitions(${board_lib} PRIVATE ${MCUPROF_BOARD_DEFINITIONS})
    # Not profiled (no -pg), but inside the profiled text: aligned like the
    # profiled code, so its samples do not share bins with a neighbour.
    target_compile_options(${board_lib} PRIVATE ${MCUPROF_BOARD_CPU_FLAGS} -O2 -g
                           -ffreestanding -Wall -Wextra -Werror)
    mcuprof_align_sections(${board_lib})
  endif()
  add_executable(${target} ${P_SOURCES} $<TARGET_OBJECTS:${board_lib}>)
  target_include_directories(${target} PRIVATE ${MCUPROF_BOARD_INCLUDE_DIRS})
  target_compile_options(${target} PRIVATE ${MCUPROF_BOARD_CPU_FLAGS} -O2 -g -ffreestanding
                         -Wall -Wextra -Werror)
  # The QEMU boards run code from RAM on purpose (RISC-V virt has nothing
  # but RAM; tests run functions copied to RAM): no warning for RWX segments.
  target_link_options(${target} PRIVATE ${MCUPROF_BOARD_CPU_FLAGS} -nostartfiles -nostdlib
                      -Wl,--no-warn-rwx-segments -T ${MCUPROF_BOARD_LINKER_SCRIPT})
  foreach(dir ${MCUPROF_BOARD_LINKER_DIRS})
    target_link_options(${target} PRIVATE -L${dir})
  endforeach()
  target_link_libraries(${target} PRIVATE gcc)
  set_target_properties(${target} PROPERTIES LINK_DEPENDS ${MCUPROF_BOARD_LINKER_SCRIPT})
endfunction()
