/*
 * task_profile.h - one RTOS task's flat profile, measured from the call
 * paths the sampler recorded in it (model.h paths, each keyed by its
 * task): a function's self samples are those of the task's paths whose
 * innermost frame lies in it (it, or code it called without a hook, was
 * running), its inclusive samples those of the task's paths it is on
 * (once per path, however often recursion repeats it).
 *
 * A task is selected by its label (mp_model_task_label), as the firmware
 * spells it or as the outputs show it (text_safe.h): every entry of that
 * name, so a task deleted and created again is one task here.
 */
#ifndef MCUPROF_TASK_PROFILE_H
#define MCUPROF_TASK_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct mp_task_profile {
    uint64_t *self, *incl; /* per function of the model */
    uint64_t total;        /* samples in the task's paths: every share's 100 % */
    uint64_t in_handlers;  /* of those, samples whose context was not the task's
                            * own code (a handler, the core waiting) */
    uint64_t no_function;  /* of those, samples with no profiled function live,
                            * or whose innermost frame is in no function */
    const char *label;     /* the task's label as the firmware spells it
                            * (NULL: no entry of that name) */
};

/* 1 when M's paths record their task (a runtime with a path and a task
 * table), so that a task can be selected. */
int mp_task_profile_possible(const struct mp_model *m);

/* 1 when some task entry of M is labelled NAME. */
int mp_task_profile_known(const struct mp_model *m, const char *name);

/* The task labels of M, each once, separated by ", ", into BUF. */
void mp_task_profile_names(const struct mp_model *m, char *buf, size_t size);

/* Fill TP for the task labelled NAME. Reports and returns -1 on out of
 * memory, TP left empty. */
int mp_task_profile_compute(struct mp_task_profile *tp, const struct mp_model *m, const char *name);
void mp_task_profile_free(struct mp_task_profile *tp);

#endif /* MCUPROF_TASK_PROFILE_H */
