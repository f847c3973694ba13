# install.cmake - what `cmake --install <build> --prefix P` puts in place, so
# that a firmware project can find_package(mcuprof) (CMAKE_PREFIX_PATH=P):
#   P/bin/mcuprof                          the host tool (hosttools/)
#   P/share/mcuprof/cmake/                 mcuprof.cmake (mcuprof_instrument()),
#                                          mcuprof_check.cmake, the toolchain files
#   P/share/mcuprof/target/, include/      the runtime's sources and headers
#   P/share/mcuprof/linker/                the linker fragments
#   P/share/mcuprof/hosttools/gdb, openocd the dump scripts
#   P/share/mcuprof/boards/                the QEMU boards' manifests `mcuprof record`
#                                          reads (qemu.conf, arch.conf, cpu.flags,
#                                          memory.ld), found beside bin/mcuprof
#   P/lib/cmake/mcuprof/                   mcuprofConfig.cmake, mcuprofConfigVersion.cmake
#   P/share/doc/mcuprof/                   README.md and docs/, laid out as in the checkout
# and, from hosttools/: P/share/man/man1/mcuprof*.1 (the man pages) and
# P/share/bash-completion/completions/mcuprof.
# share/mcuprof keeps the checkout's relative paths, so mcuprof.cmake finds
# the runtime next to itself (MCUPROF_ROOT) installed or not.
include(CMakePackageConfigHelpers)

set(MCUPROF_INSTALL_DATADIR share/mcuprof CACHE STRING
    "where the kit (runtime sources, linker fragment, CMake helpers, scripts) is installed, relative to the prefix")
set(MCUPROF_INSTALL_CMAKEDIR lib/cmake/mcuprof CACHE STRING
    "where mcuprofConfig.cmake is installed, relative to the prefix")
set(kit ${MCUPROF_INSTALL_DATADIR})

install(DIRECTORY target include linker DESTINATION ${kit})
install(FILES cmake/mcuprof.cmake cmake/mcuprof_check.cmake cmake/mcuprof_align.cmake cmake/mcuprof_lto.cmake
              cmake/toolchain-arm-none-eabi.cmake cmake/toolchain-riscv64-unknown-elf.cmake
        DESTINATION ${kit}/cmake)
install(DIRECTORY hosttools/gdb hosttools/openocd DESTINATION ${kit}/hosttools)
# what `mcuprof record` reads to start QEMU for a board (cmd/board_conf.c):
# ../share/mcuprof/boards from the installed tool
install(DIRECTORY boards/ DESTINATION ${kit}/boards
        FILES_MATCHING PATTERN "qemu.conf" PATTERN "arch.conf" PATTERN "cpu.flags" PATTERN "memory.ld"
        PATTERN "include" EXCLUDE)
# the documentation, laid out as in the checkout so the links between
# README.md and docs/ hold
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs DESTINATION ${CMAKE_INSTALL_DOCDIR})

configure_package_config_file(cmake/mcuprofConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/mcuprofConfig.cmake
  INSTALL_DESTINATION ${MCUPROF_INSTALL_CMAKEDIR}
  PATH_VARS MCUPROF_INSTALL_DATADIR
  NO_CHECK_REQUIRED_COMPONENTS_MACRO)
# The firmware project that loads the package is cross-compiled (a 4-byte
# void * on RV32 and Cortex-M): nothing in it depends on the host's word size.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/mcuprofConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion
  ARCH_INDEPENDENT)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/mcuprofConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/mcuprofConfigVersion.cmake
        DESTINATION ${MCUPROF_INSTALL_CMAKEDIR})
