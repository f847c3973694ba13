# The pprof output, read back by `go tool pprof` (pprof.sh says what each
# part checks). gprof is the reference for the flat profile.
foreach(part time calls counters)
  mcuprof_format_test(NAME pprof_${part}
                      PROGRAMS go arm-none-eabi-gprof riscv64-unknown-elf-gprof
                      COMMAND bash ${formats_src}/pprof.sh ${part})
endforeach()
