# Source lines from DWARF in `mcuprof report --lines`: the demo's hot loop
# named as its function's hottest line, each function's lines adding up to
# its self samples; an ELF stripped of its debug information; and one
# whose DWARF sections are damaged byte-wise.
# (a build without libdw has no source lines: tests/unit checks it says so)
if(NOT MCUPROF_HAVE_LIBDW)
  return()
endif()
foreach(board ${format_fixture_boards})
  mcuprof_board_load(${board})
  mcuprof_format_test(NAME lines BOARDS ${board}
                      COMMAND bash ${formats_src}/lines.sh lines)
  mcuprof_format_test(NAME lines_stripped BOARDS ${board} PROGRAMS ${MCUPROF_BOARD_TOOL_PREFIX}-objcopy
                      COMMAND bash ${formats_src}/lines.sh stripped ${MCUPROF_BOARD_TOOL_PREFIX})
  mcuprof_format_test(NAME lines_damaged BOARDS ${board} PROGRAMS ${MCUPROF_BOARD_TOOL_PREFIX}-readelf
                      COMMAND bash ${formats_src}/lines.sh damaged ${MCUPROF_BOARD_TOOL_PREFIX})
endforeach()
