# mcuprof_align.cmake - start every function of an object file on a
# histogram bin boundary: raise the alignment of each code section
# (SHF_EXECINSTR: .text.*, .text.unlikely.*, .text.startup.*, C++ COMDAT
# .text._Z..., user sections such as .ramfunc) to the bin size, never
# lowering one that asks for more. Compiled with -ffunction-sections, each
# function (and each .cold part) is a section of its own, so every one of
# them starts on the boundary, at every optimisation level: GCC ignores
# -falign-functions for what it optimises for size (all of -Os, cold
# functions at -O2). A plain cmake -P script, so it runs wherever CMake
# does (Windows too).
#
# On object files, after compiling them (the build without CMake):
#   cmake -P mcuprof_align.cmake arm-none-eabi-objcopy main.o startup.o
# (-DMCUPROF_ALIGN=N before -P for another bin size than 16 bytes). As a
# compiler launcher (mcuprof_instrument() sets it): runs the compile
# command after `--` (a launcher of the user's, such as ccache, first),
# then aligns the object named by its -o:
#   cmake -P mcuprof_align.cmake --compile OBJCOPY OBJDUMP ALIGN -- [LAUNCHER...] CC ARGS...
# The objdump is the objcopy's name with objcopy replaced by objdump when
# not given. Everything is positional: cmake also reads -D, -U, -C and -P
# after the script's name, and a compile command's -D definitions must not
# set this script's variables.
#
# Objects with no code (LTO objects hold GIMPLE, code is made at link) are
# left as they are. objcopy writes a new file that replaces the object, so
# a hard link into a compiler cache is never written through.
cmake_minimum_required(VERSION 3.20)

# The arguments after the script's name.
set(args "")
set(after_script OFF)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  if(after_script)
    list(APPEND args "${CMAKE_ARGV${i}}")
  else()
    math(EXPR prev "${i} - 1")
    if(CMAKE_ARGV${prev} STREQUAL "-P")
      set(after_script ON)
    endif()
  endif()
endforeach()

set(usage "cmake -P mcuprof_align.cmake <prefix>objcopy FILE.o...")
set(compile OFF)
if(args MATCHES "^--compile;")
  list(LENGTH args n)
  if(n LESS 6)
    set(sep "")
  else()
    list(GET args 4 sep)
  endif()
  if(NOT sep STREQUAL "--")
    message(FATAL_ERROR "mcuprof_align: --compile OBJCOPY OBJDUMP ALIGN -- COMMAND...")
  endif()
  set(compile ON)
  list(GET args 1 objcopy)
  list(GET args 2 objdump)
  list(GET args 3 align)
  list(SUBLIST args 5 -1 args)
else()
  if(NOT args)
    message(FATAL_ERROR "mcuprof_align: ${usage}")
  endif()
  list(POP_FRONT args objcopy)
  set(objdump "")
  set(align 16)
  if(DEFINED MCUPROF_ALIGN)
    set(align ${MCUPROF_ALIGN})
  endif()
endif()
if(NOT objdump)
  get_filename_component(dir "${objcopy}" DIRECTORY)
  get_filename_component(name "${objcopy}" NAME)
  string(REGEX REPLACE "objcopy" "objdump" name "${name}")
  if(dir)
    set(objdump "${dir}/${name}")
  else()
    set(objdump "${name}")
  endif()
endif()
if(NOT align MATCHES "^[0-9]+$" OR align LESS 2)
  message(FATAL_ERROR "mcuprof_align: the alignment must be a power of two of at least 2, not '${align}'")
endif()
math(EXPR low_bits "${align} & (${align} - 1)")
if(NOT low_bits EQUAL 0)
  message(FATAL_ERROR "mcuprof_align: the alignment must be a power of two, not '${align}'")
endif()

# Raise the code sections of OBJ below ALIGN to ALIGN (or to the largest
# alignment a section of the same name asks for: objcopy sets sections by
# name).
function(mcuprof_align_object obj)
  execute_process(COMMAND "${objdump}" -h -w "${obj}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mcuprof_align: ${objdump} -h ${obj} failed: ${err}")
  endif()
  string(REPLACE "\n" ";" lines "${out}")
  # names, with the least and the largest alignment of the sections so named
  set(names "")
  set(mins "")
  set(maxs "")
  foreach(line IN LISTS lines)
    # idx name size vma lma offset 2**align flags
    if(line MATCHES "^ *[0-9]+ +([^ ]+) +[0-9a-fA-F]+ +[0-9a-fA-F]+ +[0-9a-fA-F]+ +[0-9a-fA-F]+ +2\\*\\*([0-9]+) +(.*)$")
      set(name "${CMAKE_MATCH_1}")
      math(EXPR a "1 << ${CMAKE_MATCH_2}")
      if(NOT CMAKE_MATCH_3 MATCHES "(^|[ ,])CODE(,|$)")
        continue()
      endif()
      list(FIND names "${name}" k)
      if(k EQUAL -1)
        list(APPEND names "${name}")
        list(APPEND mins ${a})
        list(APPEND maxs ${a})
      else()
        list(GET mins ${k} lo)
        list(GET maxs ${k} hi)
        if(a LESS lo)
          list(REMOVE_AT mins ${k})
          list(INSERT mins ${k} ${a})
        elseif(a GREATER hi)
          list(REMOVE_AT maxs ${k})
          list(INSERT maxs ${k} ${a})
        endif()
      endif()
    endif()
  endforeach()
  set(opts "")
  foreach(name lo hi IN ZIP_LISTS names mins maxs)
    if(lo LESS align)
      set(to ${align})
      if(hi GREATER to)
        set(to ${hi})
      endif()
      list(APPEND opts "--set-section-alignment" "${name}=${to}")
    endif()
  endforeach()
  if(NOT opts)
    return()
  endif()
  set(tmp "${obj}.mcuprof-align.tmp")
  execute_process(COMMAND "${objcopy}" ${opts} "${obj}" "${tmp}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    file(REMOVE "${tmp}")
    message(FATAL_ERROR "mcuprof_align: ${objcopy} on ${obj} failed: ${out}${err}")
  endif()
  file(RENAME "${tmp}" "${obj}")
endfunction()

if(compile)
  execute_process(COMMAND ${args} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    # (the compiler has said why; cmake -P has no other way to fail)
    message(FATAL_ERROR "compile command failed (${rc})")
  endif()
  # Only a compile to an object (-c ... -o OBJ), not -E or -S.
  list(FIND args "-c" c_at)
  list(FIND args "-o" o_at)
  if(c_at GREATER -1 AND o_at GREATER -1)
    math(EXPR o_at "${o_at} + 1")
    list(LENGTH args n)
    if(o_at LESS n)
      list(GET args ${o_at} obj)
      mcuprof_align_object("${obj}")
    endif()
  endif()
else()
  if(NOT args)
    message(FATAL_ERROR "mcuprof_align: no object file named: ${usage}")
  endif()
  foreach(obj IN LISTS args)
    mcuprof_align_object("${obj}")
  endforeach()
endif()
