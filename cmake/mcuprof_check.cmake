# mcuprof_check.cmake - run `mcuprof check ELF` after a link and show what
# it finds; never fails the build (cmake -P, see mcuprof_instrument()).
#   cmake -DMCUPROF_TOOL=<mcuprof> -DELF=<firmware> -P mcuprof_check.cmake
execute_process(COMMAND ${MCUPROF_TOOL} check ${ELF}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR "${out}" MATCHES ": (error|warning): ")
  # (plain message(): its lines are printed as they are, on stderr)
  message("mcuprof check: this firmware will not be profiled exactly:\n${out}${err}")
endif()
