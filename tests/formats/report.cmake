# `mcuprof report` against gprof itself, on the demo's profile: the flat
# profile's % time and calls, --top, --function and a bad --function.
foreach(board ${format_fixture_boards})
  mcuprof_board_load(${board})
  mcuprof_format_test(NAME report BOARDS ${board} PROGRAMS ${MCUPROF_BOARD_TOOL_PREFIX}-gprof
                      COMMAND bash ${formats_src}/report.sh ${MCUPROF_BOARD_TOOL_PREFIX})
endforeach()
