# Toolchain file for the host tool on Windows: Debian's mingw-w64
# (gcc-mingw-w64-x86-64, the win32 thread model, so no winpthread DLL).
#   cmake -S . -B build-win -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mingw-w64-x86_64.cmake
# The Windows build is the host tool alone (docs/windows.md): the firmware
# and QEMU tests need the Linux build. Its tests run the .exe under Wine
# when Wine is installed (CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(MINGW_PREFIX x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${MINGW_PREFIX}-gcc)
set(CMAKE_CXX_COMPILER ${MINGW_PREFIX}-g++)
set(CMAKE_RC_COMPILER ${MINGW_PREFIX}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config must see the mingw packages only, never the Linux ones
# (libelf, libdw) it would otherwise offer for a Windows link.
set(ENV{PKG_CONFIG_LIBDIR} /usr/${MINGW_PREFIX}/lib/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
find_program(MCUPROF_WINE NAMES wine wine64)
if(MCUPROF_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${MCUPROF_WINE})
endif()
