# Toolchain file for RISC-V firmware: Debian's gcc-riscv64-unknown-elf,
# which builds RV32 and RV64 code (-march/-mabi belong to the firmware
# target) and ships no C library: firmware is freestanding.
#   cmake -DCMAKE_TOOLCHAIN_FILE=<mcuprof>/cmake/toolchain-riscv64-unknown-elf.cmake ...
# Self-contained on purpose, like its sibling for the other architecture:
# a project may copy one toolchain file on its own.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_CXX_COMPILER riscv64-unknown-elf-g++)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy)
set(CMAKE_OBJDUMP riscv64-unknown-elf-objdump)
set(CMAKE_SIZE riscv64-unknown-elf-size)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
