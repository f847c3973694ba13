/*
 * no_calls_warn.h - the warning `convert` and `report` give for an image
 * that holds samples and no call (no_calls_warn.c).
 */
#ifndef MCUPROF_NO_CALLS_WARN_H
#define MCUPROF_NO_CALLS_WARN_H

#include "model.h"

/* When M has samples but no arc (and its runtime keeps arcs), warn with
 * the likely cause: with M's ELF, whether any function calls the hook
 * (none: -pg did not reach the code, as with -flto and -pg at compile
 * time only). Never fails. */
void mp_warn_no_calls(const struct mp_model *m);

#endif /* MCUPROF_NO_CALLS_WARN_H */
