# The image magic is defined once, in include/mcuprof/image.h, as a word
# and as its bytes in either byte order. The scripts that cannot include
# a C header spell the word again; this fails when any spelling drifts
# from the header's.
#   cmake -DROOT=<source tree> -P magic_spelling.cmake
set(header ${ROOT}/include/mcuprof/image.h)
file(STRINGS ${header} defs REGEX "^#define MCUPROF_IMAGE_MAGIC")
foreach(d IN LISTS defs)
  if(d MATCHES "^#define MCUPROF_IMAGE_MAGIC (0x[0-9A-Fa-f]+)u")
    set(word ${CMAKE_MATCH_1})
  elseif(d MATCHES "^#define MCUPROF_IMAGE_MAGIC_LE \"(....)\"")
    set(le "${CMAKE_MATCH_1}")
  elseif(d MATCHES "^#define MCUPROF_IMAGE_MAGIC_BE \"(....)\"")
    set(be "${CMAKE_MATCH_1}")
  endif()
endforeach()
if(NOT word OR NOT le OR NOT be)
  message(FATAL_ERROR "${header}: MCUPROF_IMAGE_MAGIC, _LE or _BE not found")
endif()

# the word's bytes, lowest first, are the little-endian spelling
foreach(i 0 1 2 3)
  math(EXPR byte "(${word} >> (8 * ${i})) & 0xff")
  list(APPEND codes ${byte})
endforeach()
string(ASCII ${codes} want_le)
list(REVERSE codes)
string(ASCII ${codes} want_be)
if(NOT le STREQUAL want_le OR NOT be STREQUAL want_be)
  message(FATAL_ERROR "${header}: MCUPROF_IMAGE_MAGIC ${word} reads \"${want_le}\"/\"${want_be}\", "
                      "but _LE/_BE say \"${le}\"/\"${be}\"")
endif()

string(TOLOWER ${word} word)
foreach(script hosttools/openocd/mcuprof.tcl hosttools/gdb/mcuprof.gdb tests/pull/fixtures/openocd_stubs.tcl)
  file(READ ${ROOT}/${script} text)
  string(TOLOWER "${text}" text)
  string(FIND "${text}" "${word}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${script}: does not spell the image magic ${word} of ${header}")
  endif()
endforeach()
message(STATUS "the image magic ${word} (\"${le}\"/\"${be}\") is spelled alike everywhere")
