/*
 * mcuprof_semihost_ops.h - the semihosting operations the kit uses (the
 * runtime's image write, the boards' console and exit), with the numbers
 * and argument blocks of the Arm semihosting specification, which RISC-V
 * semihosting shares. The trap that performs one is per architecture
 * (<arch>/mcuprof_semihost.h). Usable from C and assembly.
 */
#ifndef MCUPROF_SEMIHOST_OPS_H
#define MCUPROF_SEMIHOST_OPS_H

#define MCUPROF_SEMIHOST_SYS_OPEN 0x01u          /* {name, mode, length of name} -> handle or -1 */
#define MCUPROF_SEMIHOST_SYS_CLOSE 0x02u         /* {handle} -> 0 or -1 */
#define MCUPROF_SEMIHOST_SYS_WRITE 0x05u         /* {handle, data, length} -> bytes NOT written */
#define MCUPROF_SEMIHOST_SYS_EXIT_EXTENDED 0x20u /* {reason, exit code} */

/* SYS_OPEN's mode "wb": written from the start, binary */
#define MCUPROF_SEMIHOST_OPEN_WB 5u
/* SYS_EXIT_EXTENDED's reason for a program that ended by itself */
#define MCUPROF_SEMIHOST_ADP_STOPPED_APPLICATION_EXIT 0x20026u

#endif /* MCUPROF_SEMIHOST_OPS_H */
