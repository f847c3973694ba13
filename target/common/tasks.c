/*
 * tasks.c - counting samples by the RTOS task that was running
 * (mcuprof_tasks_watch, MCUPROF_CFG_TASKS).
 *
 * The kernel keeps the running task's handle in a variable (FreeRTOS:
 * pxCurrentTCB); the sampler reads it at each sample. The handle is only
 * compared, never dereferenced by the runtime; the firmware's name
 * callback reads the task's name once, when the task is first seen, and
 * only for a handle inside the range the firmware declared valid.
 */
#include "mcuprof.h"
#include "mcuprof_layout.h"
#include "mcuprof_port.h"
#include "sample_context.h"
#include "paths.h"

#if MCUPROF_CFG_TASKS > 0
struct mcuprof_task_watch mcuprof_task_watch;
static const char *(*task_name)(const void *task);
static uintptr_t valid_low, valid_high;
/* A task that deleted itself runs on until the kernel switches away: its
 * entry is marked deleted then, at the first sample of another task, so
 * the samples of that last stretch stay in its entry. */
static uintptr_t pending_delete;

MCUPROF_NOINSTR static void mark_deleted(uintptr_t handle)
{
    uint32_t used = mcuprof_region.task_ext.used;
    for (uint32_t i = 0; i < used; i++)
        if (mcuprof_region.tasks[i].handle == handle)
            mcuprof_region.tasks[i].flags |= MCUPROF_TASK_DELETED;
#if MCUPROF_CFG_PATH_TASKS > 0
    mcuprof_paths_task_gone(handle);
#endif
}

MCUPROF_NOINSTR int mcuprof_tasks_watch(void *const volatile *current, const char *(*name)(const void *task),
                                         uintptr_t low, uintptr_t high)
{
    if (!current || ((uintptr_t)current & (sizeof(void *) - 1u)) || (high && high <= low))
        return MCUPROF_ERR_ARGUMENT;
    mcuprof_irq_state_t s = mcuprof_port_irq_save();
    task_name = name;
    valid_low = low;
    valid_high = high;
    mcuprof_task_watch.last = 0;
    MCUPROF_TASK_HIT(MCUPROF_PATH_NO_TASK);
    mcuprof_task_watch.current = current;
    mcuprof_port_irq_restore(s);
    return MCUPROF_OK;
}

MCUPROF_NOINSTR static void copy_name(struct mcuprof_task *t, const void *handle)
{
    const char *n = task_name ? task_name(handle) : 0;
    for (uint32_t i = 0; n && i < MCUPROF_TASK_NAME_MAX && n[i]; i++)
        t->name[i] = n[i];
}

MCUPROF_NOINSTR void mcuprof_task_resolve(void)
{
    struct mcuprof_ext *e = &mcuprof_region.task_ext;
    struct mcuprof_task *t = mcuprof_region.tasks;
    uintptr_t handle = (uintptr_t)*mcuprof_task_watch.current;
    uint32_t used, i;

    if (pending_delete && pending_delete != handle) {
        mark_deleted(pending_delete);
        pending_delete = 0;
    }
    used = e->used;

    /* 0 is "no task yet" (before the scheduler runs) and gets its entry
     * like any other; a handle the kernel could not have made is not
     * entered, so a corrupt variable cannot fill the table. */
    MCUPROF_TASK_HIT(MCUPROF_PATH_NO_TASK); /* unless an entry counts it below */
    if (handle && ((handle & (sizeof(void *) - 1u)) ||
                   (valid_high && (handle < valid_low || handle >= valid_high)))) {
        mcuprof_count_saturating(&e->invalid);
        return;
    }
    for (i = 0; i < used && (t[i].handle != handle || t[i].flags); i++)
        ;
    if (i == used) {
        if (used == MCUPROF_CFG_TASKS) {
            mcuprof_count_saturating(&e->lost);
            return;
        }
        t[i].handle = handle;
        t[i].samples = 0;
        for (uint32_t k = 0; k < MCUPROF_TASK_NAME_MAX; k++)
            t[i].name[k] = 0;
        t[i].flags = 0;
        if (handle)
            copy_name(&t[i], (const void *)handle);
        e->used = used + 1u;
    }
    mcuprof_task_watch.last = i;
    MCUPROF_TASK_HIT(i);
    mcuprof_count_saturating(&t[i].samples);
}

MCUPROF_NOINSTR void mcuprof_task_deleted(const void *task)
{
    mcuprof_irq_state_t s = mcuprof_port_irq_save();
    if (mcuprof_task_watch.current && (uintptr_t)*mcuprof_task_watch.current == (uintptr_t)task)
        pending_delete = (uintptr_t)task; /* deleting itself: still running */
    else
        mark_deleted((uintptr_t)task);
    mcuprof_port_irq_restore(s);
}

MCUPROF_NOINSTR void mcuprof_task_created(const void *task)
{
    mcuprof_irq_state_t s = mcuprof_port_irq_save();
    if (pending_delete == (uintptr_t)task) {
        /* its handle is reused: the task that deleted itself is gone */
        mark_deleted(pending_delete);
        pending_delete = 0;
    }
#if MCUPROF_CFG_PATH_TASKS > 0
    mcuprof_paths_task_new((uintptr_t)task);
#endif
    mcuprof_port_irq_restore(s);
}
#else
MCUPROF_NOINSTR int mcuprof_tasks_watch(void *const volatile *current, const char *(*name)(const void *task),
                                         uintptr_t low, uintptr_t high)
{
    (void)current;
    (void)name;
    (void)low;
    (void)high;
    return MCUPROF_ERR_NO_TABLE;
}

MCUPROF_NOINSTR void mcuprof_task_resolve(void)
{
}

MCUPROF_NOINSTR void mcuprof_task_deleted(const void *task)
{
    (void)task;
}

MCUPROF_NOINSTR void mcuprof_task_created(const void *task)
{
    (void)task;
}
#endif
