/*
 * semihost.h - the semihosting operations the boards and their tests use,
 * the same numbers on Arm and RISC-V. The trap itself is per architecture
 * (cortex_m.h: cm_semihost, riscv.h: rv_semihost).
 */
#ifndef MCUPROF_SEMIHOST_H
#define MCUPROF_SEMIHOST_H

/* Semihosting operations and the reason codes of SYS_EXIT */
#define SEMIHOST_SYS_OPEN 0x01
#define SEMIHOST_SYS_CLOSE 0x02
#define SEMIHOST_SYS_WRITE 0x05
#define SEMIHOST_SYS_EXIT 0x18
#define SEMIHOST_SYS_EXIT_EXTENDED 0x20
#define SEMIHOST_ADP_STOPPED_APPLICATION_EXIT 0x20026

#endif
