# mcuprof.cmake - profile a firmware target with mcuprof.
#
#   include(<mcuprof>/cmake/mcuprof.cmake)
#   add_executable(app.elf ...)            # your firmware, your linker script
#   target_compile_options(app.elf PRIVATE -mcpu=cortex-m4 ...)
#   target_link_options(app.elf PRIVATE -mcpu=cortex-m4 ...)
#   mcuprof_instrument(app.elf)
#   mcuprof_align_sections(hal)            # unprofiled code in the profiled text
#
# What it does to <target>:
#   - compiles its C and C++ sources with -pg (the call hook) and
#     -fno-optimize-sibling-calls: at -O2 GCC turns `return f(x)` into a
#     jump, so f's hook would see the wrong caller. Cost: the caller keeps
#     its frame for such calls (a few instructions, a little stack).
#   - compiles them with -fno-ipa-cp -fno-ipa-sra -fno-partial-inlining
#     -fno-reorder-blocks-and-partition, unless KEEP_CLONES is given: at
#     -O2 and -Os GCC 12 makes functions of its own out of one source
#     function (foo.constprop.0, foo.isra.0, foo.part.0, foo.cold), and
#     binutils 2.40 gprof drops most of those names and charges their time
#     and calls to the function before them in memory. mcuprof's own
#     outputs name every clone (or group it with foo: --group-clones);
#     give KEEP_CLONES when gprof is not used. -fno-ipa-cp-clone alone
#     still lets .constprop clones through. Cost (bench/RESULTS.md,
#     section 9; docs/costs.md): measured on the demo and test firmware.
#   - starts every function on a histogram bin boundary (16 bytes by
#     default, the bin size up to 32): gprof splits a bin that two
#     functions share in proportion to their bytes, not to where the
#     samples fell, which puts small hot functions tens of points off.
#     -falign-functions=<bin size> does it only for what GCC optimises for
#     speed (not at -Os, not for cold functions), so the C and C++ sources
#     are also compiled with -ffunction-sections, and each object, once
#     compiled, has every code section (.text.*, .text.unlikely.*, C++
#     COMDAT, .ramfunc ...) raised to the bin alignment, never lowered:
#     the target's compiler launcher is cmake/mcuprof_align.cmake, which
#     runs the compiler (after any launcher already set on the target, such
#     as ccache: set yours before this call) and then CMAKE_OBJCOPY.
#     Applied to the runtime's C objects too (they take samples inside the
#     profiled text); assembly keeps the alignment its author wrote. Cost:
#     flash only, on average half a bin of padding per function (on the
#     M3, 380 bytes or 4.3 % of .text for the demo at -O2, 356 or 4.9 %
#     for tests/e2e/firmware/time_os.c at -Os: bench/RESULTS.md, section
#     5); no instruction that runs; a cmake -P process per compiled file.
#     With -flto the objects hold GIMPLE, no code yet (the step leaves
#     them as they are): the code made at link is not aligned at -Os (at
#     -O2 -falign-functions, kept in the IR, still aligns every profiled
#     function of the demo), and `mcuprof check` names each function that
#     shares a bin.
#   - builds the runtime WITHOUT -pg (the hook must never call itself) with
#     the target's own compile options, so -mcpu/-march and the float ABI
#     match, and links its objects in, including the default vectors unless
#     NO_DEFAULT_VECTORS is given (Cortex-M: strong SysTick_Handler and
#     HardFault_Handler; RISC-V: a strong trap_vector, which points mtvec
#     at itself from .preinit_array, over a C library crt0's own handler);
#   - links with --build-id and -L<mcuprof>/linker, so your script can say
#     INCLUDE mcuprof.ld (see linker/mcuprof.ld for the two lines to add), or
#     -Tmcuprof_insert.ld before a script you do not edit (picolibc.ld).
#   - on ARMv6-M and ARMv8-M Baseline (-mcpu=cortex-m0, m0plus, m1, m23,
#     -march=armv6-m, armv6s-m, armv8-m.base, in the target's compile
#     options or CMAKE_C_FLAGS) also with -ffixed-r8 -ffixed-r9 -ffixed-r10
#     -ffixed-r11: GCC saves the high registers a function uses through lr
#     (`push {r4-r7, lr}; mov lr, r11; ...; push {lr}; bl __gnu_mcount_nc`,
#     the highest one saved always goes through lr), so the hook would see
#     r11 as the caller; fixing fewer registers only moves the next one
#     through lr. Cost, measured by bench/v6m_fixed_regs/run.sh on a
#     register-hungry quicksort (tests/e2e/firmware/high_regs.c): none; 13 %
#     less code in its partition() and 5 % fewer instructions, as saving a
#     high register on v6-M takes two moves and restoring it two more.
#   - after each link runs `mcuprof check` on the firmware and shows what
#     it finds as a warning (never failing the build), when the host tool
#     is found: MCUPROF_TOOL, the newest built in this checkout
#     (<mcuprof>/build*/hosttools/mcuprof), or `mcuprof` on the PATH.
#   - links with -pg too: with -flto GCC makes the code at link and takes
#     -pg for it from the link command only. On arm-none-eabi the driver
#     then asks for -lc_p, newlib's profiling C library, which is not
#     shipped: -L<mcuprof>/linker/libc_p/newlib (or .../nano, when the
#     link has --specs=nano.specs) finds a libc_p.a that is a linker script
#     naming the C library (-lc, -lc_nano). Also compiles with -fno-ipa-icf
#     (GCC folds identical functions into one name, with LTO nearly any),
#     and the runtime with -fno-lto (see cmake/mcuprof_lto.cmake).
#
# Options:
#   ARCS n           arc records (default 256; 14 bytes each, 26 on RV64)
#   BUCKET_BITS n    log2 of the hash buckets (default 8; 2 bytes each)
#   BIN_SHIFT n      log2 of the histogram bin size in bytes, exactly (default 4)
#   HIST_BUDGET n    RAM bytes the histogram may take: the finest bins from 2
#                    to 16 bytes that fit; the link fails if 16 do not
#   JITTER_PERCENT n width of the random window each sample lands in, in
#                    percent of the sampling period (default 100; 0: a fixed
#                    period, which periodic code can lock onto)
#   AUTOSTART        start profiling before main (from .preinit_array)
#   TASKS n          entries of the RTOS task table (MCUPROF_CFG_TASKS, default
#                    0: none): each sample is also counted by the running task
#                    registered with mcuprof_tasks_watch(); 32 bytes an entry
#                    plus a 24-byte table header (docs/rtos.md)
#   CONTEXTS n       entries of the context table (MCUPROF_CFG_CONTEXTS,
#                    default 0: none): each sample is also counted by what
#                    it interrupted (thread, idle, each interrupt handler
#                    seen); 8 bytes an entry plus a small fixed part
#   PATHS n          entries of the call-path table (MCUPROF_CFG_PATHS, default
#                    0: none): the hook keeps a shadow stack of the live
#                    profiled functions and each sample is also counted by
#                    its exact call path (docs/paths.md); 16 + PATH_DEPTH *
#                    pointer-size bytes an entry in the image, 8 in RAM
#   PATH_DEPTH n     frames of the shadow stack and of each path (default 16,
#                    2..1024); deeper paths keep their outermost and
#                    innermost frames with a gap between, flagged
#   PATH_TASKS n     with PATHS and TASKS: keep the shadow stacks of n tasks
#                    across task switches (MCUPROF_CFG_PATH_TASKS, default 0:
#                    the stack is emptied at a switch, later paths flagged
#                    cut); 16 + PATH_DEPTH * 24 bytes of RAM a task (Cortex-M)
#   SPILL n          entries of the spill table (MCUPROF_CFG_SPILL, default 32;
#                    0: none, bins then saturate at 65535): a histogram bin
#                    that passes 65535 samples wraps and its entry counts the
#                    carry, so no count is lost; a bin that wraps with the
#                    table full stays at 65535 and its samples are counted in
#                    lost_samples_saturated; 8 bytes an entry plus a 24-byte
#                    table header
#   NO_DEFAULT_VECTORS  do not define SysTick_Handler / HardFault_Handler
#                    (Cortex-M) or trap_vector (RISC-V)
#   KEEP_CLONES      let GCC make its clones and cold parts (the code is
#                    then what -O2 or -Os alone makes): mcuprof's outputs
#                    name them all, gprof charges most of them to the
#                    function before them (`mcuprof check` lists which)
#
# Code that runs before .data is initialised (Reset_Handler, SystemInit)
# must not call the hook: mark it __attribute__((no_instrument_function)).
get_filename_component(MCUPROF_ROOT ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
include(${CMAKE_CURRENT_LIST_DIR}/mcuprof_lto.cmake)

# The -mcpu/-march values of ARMv6-M and ARMv8-M Baseline.
set(MCUPROF_V6M_REGEX "^-m(cpu=cortex-m(0|0plus|1|23)(\\.small-multiply)?|arch=armv(6s?-m|8-m\\.base))([+].*)?$")

function(_mcuprof_fix_v6m_callers target)
  get_target_property(opts ${target} COMPILE_OPTIONS)
  if(NOT opts)
    set(opts "")
  endif()
  separate_arguments(flags UNIX_COMMAND "${CMAKE_C_FLAGS} ${CMAKE_CXX_FLAGS}")
  list(APPEND flags ${opts})
  list(FILTER flags INCLUDE REGEX "${MCUPROF_V6M_REGEX}")
  if(flags)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:C,CXX>:-ffixed-r8 -ffixed-r9 -ffixed-r10 -ffixed-r11>)
    # with -flto the code is made at link, which takes them from the link
    # command only (like -pg, mcuprof_lto.cmake)
    target_link_options(${target} PRIVATE -ffixed-r8 -ffixed-r9 -ffixed-r10 -ffixed-r11)
  endif()
endfunction()

# mcuprof_align_sections(<target> [ALIGN bytes]) - start every C and C++
# function of <target> on an ALIGN-byte boundary (default 16, the bin
# size), at every optimisation level: compiles with -ffunction-sections
# and makes cmake/mcuprof_align.cmake the compiler launcher, which runs the
# compiler (after any launcher already set on the target, such as ccache)
# and raises each code section of the object to ALIGN with CMAKE_OBJCOPY.
# mcuprof_instrument() calls it; call it yourself for code you link in
# unprofiled but inside the profiled text (an RTOS kernel, a vendor HAL).
function(mcuprof_align_sections target)
  cmake_parse_arguments(P "" "ALIGN" "" ${ARGN})
  set(align 16)
  if(DEFINED P_ALIGN)
    set(align ${P_ALIGN})
  endif()
  if(NOT CMAKE_OBJCOPY)
    message(FATAL_ERROR "mcuprof_align_sections(${target}): no objcopy for this toolchain (set "
                        "CMAKE_OBJCOPY, as cmake/toolchain-*.cmake do): it aligns each function "
                        "to the histogram bins")
  endif()
  set(objdump "${CMAKE_OBJDUMP}")
  if(NOT objdump)
    string(REGEX REPLACE "objcopy([^/]*)$" "objdump\\1" objdump "${CMAKE_OBJCOPY}")
  endif()
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C,CXX>:-ffunction-sections>)
  foreach(lang C CXX)
    get_target_property(launcher ${target} ${lang}_COMPILER_LAUNCHER)
    if(NOT launcher)
      set(launcher "")
    endif()
    if(NOT "${launcher}" MATCHES "mcuprof_align\\.cmake")
      set_property(TARGET ${target} PROPERTY ${lang}_COMPILER_LAUNCHER
        ${CMAKE_COMMAND} -P ${MCUPROF_ROOT}/cmake/mcuprof_align.cmake
        --compile ${CMAKE_OBJCOPY} ${objdump} ${align} -- ${launcher})
    endif()
  endforeach()
endfunction()

# The host tool for `mcuprof check` after each link: MCUPROF_TOOL when
# set (the installed package sets its own); else the newest one built in
# this checkout (<mcuprof>/build*/hosttools/mcuprof, or mcuprof.exe on
# Windows), which matches the kit
# the firmware is built with; else `mcuprof` on the PATH.
function(_mcuprof_find_tool)
  if(MCUPROF_TOOL)
    return()
  endif()
  file(GLOB tools LIST_DIRECTORIES false ${MCUPROF_ROOT}/build*/hosttools/mcuprof
       ${MCUPROF_ROOT}/build*/hosttools/mcuprof.exe)
  set(newest "")
  foreach(t IN LISTS tools)
    if(newest STREQUAL "" OR "${t}" IS_NEWER_THAN "${newest}")
      set(newest "${t}")
    endif()
  endforeach()
  if(newest)
    set(MCUPROF_TOOL "${newest}" CACHE FILEPATH "the mcuprof host tool, run as `mcuprof check` after each link")
  else()
    find_program(MCUPROF_TOOL mcuprof)
  endif()
  if(NOT MCUPROF_TOOL)
    message(STATUS "mcuprof: no host tool (MCUPROF_TOOL, ${MCUPROF_ROOT}/build*/hosttools/mcuprof, "
                   "or mcuprof on the PATH): the firmware is not checked after the link")
  endif()
endfunction()

function(mcuprof_instrument target)
  cmake_parse_arguments(P "AUTOSTART;NO_DEFAULT_VECTORS;KEEP_CLONES" "ARCS;BUCKET_BITS;BIN_SHIFT;HIST_BUDGET;JITTER_PERCENT;TASKS;CONTEXTS;PATHS;PATH_DEPTH;PATH_TASKS;SPILL" "" ${ARGN})
  if(P_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mcuprof_instrument(${target}): unknown arguments: ${P_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "mcuprof_instrument: no target named '${target}'")
  endif()

  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^arm")
    set(arch cortex-m)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^riscv")
    set(arch riscv)
  else()
    message(FATAL_ERROR "mcuprof_instrument(${target}): no runtime for processor "
                        "'${CMAKE_SYSTEM_PROCESSOR}' (use cmake/toolchain-*.cmake)")
  endif()
  set(rt ${MCUPROF_ROOT}/target)
  file(GLOB rt_sources CONFIGURE_DEPENDS ${rt}/common/*.c ${rt}/${arch}/*.c ${rt}/${arch}/*.S)
  if(P_NO_DEFAULT_VECTORS)
    list(FILTER rt_sources EXCLUDE REGEX "/default_vectors\\.S$")
  endif()

  set(rt_lib ${target}_mcuprof_runtime)
  add_library(${rt_lib} OBJECT ${rt_sources})
  set_target_properties(${rt_lib} PROPERTIES LINKER_LANGUAGE C)
  target_include_directories(${rt_lib} PUBLIC ${rt}/include ${MCUPROF_ROOT}/include
                             PRIVATE ${rt}/common ${rt}/${arch})
  # Same CPU flags as the firmware, minus those this function adds: the
  # runtime must not call the hook, may use tail calls and every register.
  target_compile_options(${rt_lib} PRIVATE
    "$<FILTER:$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>,EXCLUDE,^(-pg|-fno-optimize-sibling-calls|-ffixed-r(8|9|10|11))$>"
    -ffreestanding -Wall -Wextra -Werror)
  # -pg on the link too, for -flto; the runtime kept out of LTO
  _mcuprof_lto(${target} ${rt_lib} ${arch})
  foreach(opt TASKS CONTEXTS PATHS PATH_DEPTH PATH_TASKS SPILL)
    if(DEFINED P_${opt} AND NOT P_${opt} MATCHES "^[0-9]+$")
      message(FATAL_ERROR "mcuprof_instrument(${target}): ${opt} must be a number of entries, not '${P_${opt}}'")
    endif()
  endforeach()
  foreach(opt ARCS BUCKET_BITS JITTER_PERCENT AUTOSTART TASKS CONTEXTS PATHS PATH_DEPTH PATH_TASKS SPILL)
    if(DEFINED P_${opt} AND NOT P_${opt} STREQUAL "FALSE")
      if(opt STREQUAL "AUTOSTART")
        target_compile_definitions(${rt_lib} PRIVATE MCUPROF_CFG_AUTOSTART=1)
      else()
        target_compile_definitions(${rt_lib} PRIVATE MCUPROF_CFG_${opt}=${P_${opt}})
      endif()
    endif()
  endforeach()

  # Functions start on a bin boundary. Bins above 32 bytes are a choice of
  # coarse bins; aligning to them would cost more flash than they save RAM.
  set(align_shift 4)
  if(DEFINED P_BIN_SHIFT)
    if(NOT P_BIN_SHIFT MATCHES "^[0-9]+$" OR P_BIN_SHIFT LESS 1 OR P_BIN_SHIFT GREATER 24)
      message(FATAL_ERROR "mcuprof_instrument(${target}): BIN_SHIFT must be 1..24, not '${P_BIN_SHIFT}'")
    endif()
    set(align_shift ${P_BIN_SHIFT})
    if(align_shift GREATER 5)
      set(align_shift 5)
    endif()
  endif()
  math(EXPR align "1 << ${align_shift}")

  target_sources(${target} PRIVATE $<TARGET_OBJECTS:${rt_lib}>)
  target_include_directories(${target} PRIVATE ${rt}/include)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C,CXX>:-pg -fno-optimize-sibling-calls -falign-functions=${align}>)
  # No GCC clones (foo.constprop.0, .isra.0, .part.0, .cold): gprof charges
  # most of them to the function before them (see the top of this file).
  # An explicit -f option wins over any -O level, wherever it stands.
  if(NOT P_KEEP_CLONES)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:C,CXX>:-fno-ipa-cp -fno-ipa-sra -fno-partial-inlining -fno-reorder-blocks-and-partition>)
  endif()
  # Every function in a section of its own, each section raised to the bin
  # alignment after compiling: the runtime's too, as its functions take
  # samples (the hook's C path, the sampler) inside the profiled text.
  mcuprof_align_sections(${target} ALIGN ${align})
  mcuprof_align_sections(${rt_lib} ALIGN ${align})
  # ARMv6-M / v8-M Baseline: keep r8-r11 out of profiled prologues (see the
  # top of this file). Decided at the end of the directory, so that CPU
  # options given after this call count too.
  if(arch STREQUAL "cortex-m")
    # (EVAL: a deferred call's arguments are expanded when it runs)
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _mcuprof_fix_v6m_callers [[${target}]])")
  endif()
  target_link_options(${target} PRIVATE -Wl,--build-id -L${MCUPROF_ROOT}/linker)
  # What the firmware's ELF says will not be exact (mcuprof check), as a
  # warning after the link.
  _mcuprof_find_tool()
  if(MCUPROF_TOOL)
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND ${CMAKE_COMMAND} -DMCUPROF_TOOL=${MCUPROF_TOOL} -DELF=$<TARGET_FILE:${target}>
              -P ${MCUPROF_ROOT}/cmake/mcuprof_check.cmake
      VERBATIM)
  endif()
  if(DEFINED P_BIN_SHIFT)
    target_link_options(${target} PRIVATE -Wl,--defsym=__mcuprof_bin_shift=${P_BIN_SHIFT})
  endif()
  if(DEFINED P_HIST_BUDGET)
    if(NOT P_HIST_BUDGET MATCHES "^[0-9]+$" OR P_HIST_BUDGET EQUAL 0)
      message(FATAL_ERROR "mcuprof_instrument(${target}): HIST_BUDGET must be a number of bytes above 0, not '${P_HIST_BUDGET}'")
    endif()
    target_link_options(${target} PRIVATE -Wl,--defsym=__mcuprof_hist_budget=${P_HIST_BUDGET})
  endif()
endfunction()
