# mcuprof_lto.cmake - what mcuprof_instrument() does so that firmware
# built with -flto is profiled like any other (included by mcuprof.cmake).
#
# With -flto the objects hold GCC's IR and the code is made at link, with
# -pg taken from the link command alone (given at compile time only, no
# function calls the hook: a profile with samples and no arcs). So -pg
# goes on the link too. On arm-none-eabi that makes the driver ask for
# newlib's profiling C library, -lc_p, which is not shipped:
# linker/libc_p/newlib/libc_p.a, or linker/libc_p/nano/libc_p.a under
# --specs=nano.specs, is a linker script that names the C library instead
# (-lc, -lc_nano). With -nostdlib, and on riscv64-unknown-elf (newlib or
# picolibc), the driver asks for nothing more.
#
# Functions GCC finds identical are folded into one (-fipa-icf, on at -O2
# and -Os): the others become aliases of it, and their calls and time are
# charged to the one name gprof shows. Without LTO only functions local to
# a file can be folded so; with LTO, every function the firmware does not
# export, which is nearly all. So -fno-ipa-icf for the profiled code (it
# is read per function from the IR: it must be given at compile time).
# Cost: flash, one copy of each function that was folded.
#
# The runtime must never be code made with -pg: its objects are compiled
# with -fno-lto (and without the target's IPO), so they are plain code the
# link takes as it is, whatever -flto the target's options carry.

# nano.specs in FLAGS (a list)?
function(_mcuprof_uses_nano out flags)
  set(${out} FALSE PARENT_SCOPE)
  foreach(f IN LISTS flags)
    if(f MATCHES "(^|[ ])--?specs=nano\\.specs( |$)")
      set(${out} TRUE PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

# Deferred to the end of the directory, so that options given after
# mcuprof_instrument() count too: the libc_p.a for the C library the link
# names (--specs=nano.specs). (The code made at link sees every call of a
# function and clones far more than a file compiled alone: the demo's
# hot_a becomes hot_a.constprop.0. mcuprof_instrument()'s flags against
# GCC's clones, on unless KEEP_CLONES, are read per function from the IR,
# so given at compile time they hold for the code made at link too.)
function(_mcuprof_lto_deferred target arch)
  set(flags "${CMAKE_C_FLAGS}" "${CMAKE_CXX_FLAGS}" "${CMAKE_EXE_LINKER_FLAGS}")
  foreach(prop LINK_OPTIONS LINK_LIBRARIES COMPILE_OPTIONS)
    get_target_property(v ${target} ${prop})
    if(v)
      list(APPEND flags ${v})
    endif()
  endforeach()
  if(arch STREQUAL "cortex-m")
    _mcuprof_uses_nano(nano "${flags}")
    if(nano)
      target_link_options(${target} PRIVATE -L${MCUPROF_ROOT}/linker/libc_p/nano)
    else()
      target_link_options(${target} PRIVATE -L${MCUPROF_ROOT}/linker/libc_p/newlib)
    endif()
  endif()
endfunction()

# _mcuprof_lto(<target> <runtime object library> <arch>)
function(_mcuprof_lto target rt_lib arch)
  target_compile_options(${rt_lib} PRIVATE -fno-lto)
  set_target_properties(${rt_lib} PROPERTIES INTERPROCEDURAL_OPTIMIZATION OFF)
  target_link_options(${target} PRIVATE -pg)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C,CXX>:-fno-ipa-icf>)
  cmake_language(EVAL CODE "cmake_language(DEFER CALL _mcuprof_lto_deferred [[${target}]] [[${arch}]])")
endfunction()
