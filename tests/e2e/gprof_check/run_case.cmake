# Runs gprof_check once and asserts on its exit status and output, so a
# self-test checks not only pass/fail but that a FAIL line names the number
# gprof really shows.
#   cmake -DBIN=... -DFLAT=... -DGRAPH=... -DEXPECT=... -DRC=<0|1|2>
#         [-DOUT=<regex on stdout>] [-DOUT2=<regex>] [-DERR=<regex on stderr>]
#         -P run_case.cmake
foreach(var BIN FLAT GRAPH EXPECT RC)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_case.cmake: ${var} is not set")
  endif()
endforeach()

execute_process(
  COMMAND "${BIN}" --flat "${FLAT}" --graph "${GRAPH}" --expect "${EXPECT}"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)

set(report "exit status ${rc}\n--- stdout\n${out}--- stderr\n${err}")
if(NOT rc STREQUAL RC)
  message(FATAL_ERROR "expected exit status ${RC}, got ${report}")
endif()
foreach(var OUT OUT2)
  if(DEFINED ${var} AND NOT out MATCHES "${${var}}")
    message(FATAL_ERROR "stdout does not match '${${var}}': ${report}")
  endif()
endforeach()
if(DEFINED ERR AND NOT err MATCHES "${ERR}")
  message(FATAL_ERROR "stderr does not match '${ERR}': ${report}")
endif()
# Exit 2 must come with exactly one error line and no verdicts.
if(RC STREQUAL "2")
  string(REGEX MATCHALL "gprof_check: error: " errors "${err}")
  list(LENGTH errors n)
  if(NOT n EQUAL 1 OR out MATCHES "(^|\n)(ok  |FAIL )")
    message(FATAL_ERROR "expected one error line and no verdicts: ${report}")
  endif()
endif()
message(STATUS "${out}${err}")
