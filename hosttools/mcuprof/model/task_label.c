/*
 * task_label.c - what a task is called in the outputs that name the task
 * of a call path (pprof's task label, the folded root, report --task):
 * the name the firmware gave it, so that one name selects the task
 * whatever its handle (a task deleted and created again keeps its name).
 */
#include "model.h"

const char *mp_model_task_label(const struct mp_model *m, long task)
{
    const struct mp_model_task *t;

    if (task < 0 || (size_t)task >= m->ntasks)
        return NULL;
    t = &m->tasks[task];
    if (!t->handle)
        return "(no task)";
    return t->name[0] ? t->name : "?";
}
