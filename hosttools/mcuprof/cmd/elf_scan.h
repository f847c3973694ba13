/*
 * elf_scan.h - a firmware ELF decoded for `mcuprof check` (check_model.h):
 * its machine, symbols and code, and which functions call the hook. Also
 * read by `convert` and `report` to say why an image holds no call.
 */
#ifndef MCUPROF_ELF_SCAN_H
#define MCUPROF_ELF_SCAN_H

#include "check_model.h"

/* Open PATH into C (zeroed here) and decode every function with a size:
 * C->profiled counts those that call the hook, C->hook_name is the
 * machine's hook and C->hook its address (0: no such symbol, nothing
 * decoded). Reports (naming PATH) and returns -1 for an unreadable ELF or
 * one of a machine mcuprof does not profile. Free with mp_elf_scan_done
 * whatever it returned. */
int mp_elf_scan(struct ck *c, const char *path);
void mp_elf_scan_done(struct ck *c);

#endif /* MCUPROF_ELF_SCAN_H */
