/*
 * format_folded_task.c - the call paths as folded stacks rooted at the
 * RTOS task each ran in (format_folded.c writes them):
 *
 *     [task sensor];sensor_task;filter_run 900
 *     [task net];[IRQ 3];eth_isr 40
 *
 * `[CONTEXT]` after the task when the sample interrupted a handler (or
 * the core waiting) rather than the task's own code. A path whose task
 * was not recorded (the task table was full, an older runtime's table)
 * is under `[task not recorded]`.
 */
#include "diag.h"
#include "folded.h"
#include "formats.h"

static int write_folded_task(const struct mp_model *m, FILE *f)
{
    return mp_folded_write(m, f, 1);
}

static int check_folded_task(const struct mp_model *m)
{
    if (mp_folded_check(m, "folded-task") < 0)
        return -1;
    if (!m->has_tasks)
        return mp_error(m->name, "--format folded-task needs the task each path ran in, and the image has no task"
                                 " table: the runtime was built without TASKS (MCUPROF_CFG_TASKS)");
    return 0;
}

const struct mp_format mp_format_folded_task = {
    "folded-task", "mcuprof-task.folded",
    "folded call stacks rooted at the RTOS task each ran in; needs a PATHS and TASKS build", MP_WANTS_ELF,
    check_folded_task, write_folded_task, .rank = 81,
};
