# check_isr_refused.cmake - `mcuprof check` on FreeRTOS RISC-V firmware
# with call paths: ELF profiles code that runs on the port's ISR stack
# and must be refused (exit 1, an error naming isr_work); CLEAN_ELF, the
# same firmware with its interrupt code built without -pg, must not get
# that error.
execute_process(COMMAND ${MCUPROF} check ${ELF} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "mcuprof check exited with ${rc}, not 1, on profiled code on the ISR stack")
endif()
if(NOT out MATCHES "isr_work: error: [^\n]*ISR stack")
  message(FATAL_ERROR "mcuprof check names no error for isr_work on the ISR stack")
endif()
execute_process(COMMAND ${MCUPROF} check ${CLEAN_ELF} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(out MATCHES "ISR stack")
  message(FATAL_ERROR "mcuprof check reports the ISR stack on firmware that profiles nothing there")
endif()
