# boards.cmake - the boards, read from their directories: a board is a
# directory boards/NAME with a qemu.conf (its manifest, see boards/README.md).
# boards/boards.sh is the shell's reader of the same files.
#
# mcuprof_board_list(OUT) sets OUT to the board names, sorted.
#
# mcuprof_board_load(NAME) reads boards/NAME/qemu.conf over its
# architecture's boards/common/<arch>/arch.conf and sets, in the caller's
# scope:
#   MCUPROF_BOARD_NAME, MCUPROF_BOARD_DIR
#   MCUPROF_BOARD_ARCH           cortex-m or riscv (BOARD_ARCH)
#   MCUPROF_BOARD_CPU_FLAGS      compile and link flags (a list, cpu.flags)
#   MCUPROF_BOARD_SOURCES        startup and board support (absolute paths)
#   MCUPROF_BOARD_DEFINITIONS    preprocessor definitions for compiling
#                                MCUPROF_BOARD_SOURCES (a list, NAME or
#                                NAME=VALUE, for target_compile_definitions)
#   MCUPROF_BOARD_INCLUDE_DIRS   for board.h, board_config.h, the architecture's
#                                headers and the runtime's semihosting trap
#   MCUPROF_BOARD_LINKER_SCRIPT  memory.ld (pass with -T)
#   MCUPROF_BOARD_LINKER_DIRS    for -L, so its INCLUDEs are found
#   MCUPROF_BOARD_TOOL_PREFIX    the cross tools' prefix (arm-none-eabi, ...)
#   MCUPROF_BOARD_QEMU_BIN       the QEMU that runs it
# An unknown name stops with the list of known boards.
set(MCUPROF_BOARDS_DIR ${CMAKE_CURRENT_LIST_DIR})

function(mcuprof_board_list out)
  # CONFIGURE_DEPENDS: a new board directory re-runs the configuration
  # (not available in cmake -P).
  set(depends CONFIGURE_DEPENDS)
  if(CMAKE_SCRIPT_MODE_FILE)
    set(depends "")
  endif()
  file(GLOB known ${depends} RELATIVE ${MCUPROF_BOARDS_DIR}
       ${MCUPROF_BOARDS_DIR}/*/qemu.conf)
  list(TRANSFORM known REPLACE "/qemu.conf$" "")
  list(REMOVE_ITEM known common)
  list(SORT known)
  set(${out} ${known} PARENT_SCOPE)
endfunction()

# _mcuprof_board_read_conf(FILE): each KEY=VALUE line of FILE (shell syntax,
# the value plain or in double quotes, no expansions) as _conf_KEY in the
# caller's scope; a value of words becomes a list.
function(_mcuprof_board_read_conf file)
  file(STRINGS ${file} lines REGEX "^[A-Za-z_][A-Za-z0-9_]*=")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "^([A-Za-z_][A-Za-z0-9_]*)=(.*)$" _ "${line}")
    set(key "${CMAKE_MATCH_1}")
    set(value "${CMAKE_MATCH_2}")
    if(value MATCHES "^\"(.*)\"$")
      set(value "${CMAKE_MATCH_1}")
    endif()
    separate_arguments(value UNIX_COMMAND "${value}")
    set(_conf_${key} "${value}" PARENT_SCOPE)
  endforeach()
endfunction()

function(mcuprof_board_load NAME)
  set(dir ${MCUPROF_BOARDS_DIR}/${NAME})
  if(NAME STREQUAL "" OR NAME STREQUAL "common" OR NOT EXISTS ${dir}/qemu.conf)
    mcuprof_board_list(known)
    list(JOIN known ", " known)
    message(FATAL_ERROR
            "mcuprof: unknown board '${NAME}'; known boards: ${known}")
  endif()
  _mcuprof_board_read_conf(${dir}/qemu.conf)
  set(arch "${_conf_BOARD_ARCH}")
  set(arch_dir ${MCUPROF_BOARDS_DIR}/common/${arch})
  if(arch STREQUAL "" OR NOT EXISTS ${arch_dir}/arch.conf)
    message(FATAL_ERROR "mcuprof: ${dir}/qemu.conf: BOARD_ARCH '${arch}' is not "
                        "an architecture of ${MCUPROF_BOARDS_DIR}/common")
  endif()
  # the architecture's defaults, then the board's own values over them
  _mcuprof_board_read_conf(${arch_dir}/arch.conf)
  _mcuprof_board_read_conf(${dir}/qemu.conf)

  set(board_sources ${_conf_BOARD_SOURCES})
  if(NOT board_sources)
    if(EXISTS ${dir}/board.c)
      set(board_sources board.c)
    else()
      set(board_sources ${_conf_ARCH_BOARD_SOURCES})
    endif()
  endif()
  set(sources "")
  foreach(f IN LISTS _conf_ARCH_SOURCES)
    list(APPEND sources ${arch_dir}/${f})
  endforeach()
  list(APPEND sources ${MCUPROF_BOARDS_DIR}/common/console.c)
  foreach(f IN LISTS board_sources)
    get_filename_component(f ${dir}/${f} ABSOLUTE)
    list(APPEND sources ${f})
  endforeach()

  # One flag per line; boards/boards.sh reads the same file.
  file(STRINGS ${dir}/cpu.flags flags)

  set(MCUPROF_BOARD_NAME ${NAME} PARENT_SCOPE)
  set(MCUPROF_BOARD_DIR ${dir} PARENT_SCOPE)
  set(MCUPROF_BOARD_ARCH ${arch} PARENT_SCOPE)
  set(MCUPROF_BOARD_CPU_FLAGS "${flags}" PARENT_SCOPE)
  set(MCUPROF_BOARD_SOURCES "${sources}" PARENT_SCOPE)
  set(MCUPROF_BOARD_DEFINITIONS "${_conf_ARCH_DEFINITIONS}" PARENT_SCOPE)
  # board.h, the board's board_config.h, the architecture's headers, and
  # the runtime's port of the architecture for mcuprof_semihost.h: one
  # semihosting trap for the runtime and the boards
  get_filename_component(runtime_arch_dir ${MCUPROF_BOARDS_DIR}/../target/${arch} ABSOLUTE)
  set(MCUPROF_BOARD_INCLUDE_DIRS ${MCUPROF_BOARDS_DIR}/include ${dir} ${arch_dir} ${runtime_arch_dir}
      PARENT_SCOPE)
  set(MCUPROF_BOARD_LINKER_SCRIPT ${dir}/memory.ld PARENT_SCOPE)
  set(MCUPROF_BOARD_LINKER_DIRS ${dir} ${arch_dir} PARENT_SCOPE)
  set(MCUPROF_BOARD_TOOL_PREFIX ${_conf_TOOL_PREFIX} PARENT_SCOPE)
  set(MCUPROF_BOARD_QEMU_BIN ${_conf_QEMU_BIN} PARENT_SCOPE)
endfunction()
