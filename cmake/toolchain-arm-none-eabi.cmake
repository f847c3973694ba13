# Toolchain file for Cortex-M firmware: Debian's gcc-arm-none-eabi.
#   cmake -DCMAKE_TOOLCHAIN_FILE=<mcuprof>/cmake/toolchain-arm-none-eabi.cmake ...
# CPU flags (-mcpu, -mfloat-abi) belong to the firmware target, not here, so
# one toolchain file serves every core.
# Self-contained on purpose, like its sibling for the other architecture:
# a project may copy one toolchain file on its own.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_OBJCOPY arm-none-eabi-objcopy)
set(CMAKE_OBJDUMP arm-none-eabi-objdump)
set(CMAKE_SIZE arm-none-eabi-size)
# There is no OS to run a test executable on; check the compiler by
# building a library.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
