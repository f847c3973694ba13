/*
 * task_stacks.c - the shadow stack across task switches (MCUPROF_CFG_PATHS
 * and MCUPROF_CFG_TASKS > 0): the frames belong to the task that ran when
 * they were entered. With MCUPROF_CFG_PATH_TASKS slots, a task switched
 * out keeps its frames until it runs again; else, or with every slot
 * taken, the stack is emptied at a switch and what follows is flagged CUT.
 */
#include "mcuprof_port.h"
#include "paths.h"
#include "sample_context.h"
#include "shadow_stack.h"

#if MCUPROF_CFG_PATHS > 0 && MCUPROF_CFG_TASKS > 0

#if MCUPROF_CFG_PATH_TASKS > 0
/* The shadow stacks of tasks that are switched out, each kept until its
 * task runs again: its frames are live meanwhile, as the task is stopped
 * in the middle of them. A task with no slot (all taken, or not seen
 * since recording started) starts empty and flagged CUT. */
struct kept_stack {
    uintptr_t task; /* its handle; 0: a free slot */
    uintptr_t truncated_sp;
    uint32_t depth;
    uint8_t rooted, cut;
    struct mcuprof_frame frames[MCUPROF_SHADOW_DEPTH];
};
static struct kept_stack kept[MCUPROF_CFG_PATH_TASKS];

MCUPROF_NOINSTR static struct kept_stack *kept_of(uintptr_t task)
{
    for (uint32_t i = 0; i < MCUPROF_CFG_PATH_TASKS; i++)
        if (kept[i].task == task)
            return &kept[i];
    return 0;
}

/* The slot of TASK, or a free one given to it; 0 when all are taken. */
MCUPROF_NOINSTR static struct kept_stack *kept_for(uintptr_t task)
{
    struct kept_stack *k = kept_of(task);
    if (!k && (k = kept_of(0)) != 0)
        k->task = task;
    return k;
}

/* Keep the stack of the task switched out, if it gets a slot. */
MCUPROF_NOINSTR static void keep_stack(void)
{
    struct mcuprof_shadow_stack *s = &mcuprof_shadow;
    struct kept_stack *k = s->owner ? kept_for(s->owner) : 0;
    if (!k)
        return;
    for (uint32_t i = 0; i < s->depth; i++)
        k->frames[i] = mcuprof_shadow_frames[i];
    k->depth = s->depth;
    k->truncated_sp = s->truncated_sp;
    k->rooted = s->rooted;
    k->cut = s->cut;
}

/* Take back the kept stack of TASK, switched in: 0 when it has none. The
 * task's stack was left alone while it was switched out; a frame whose
 * return address is no longer under its top was overwritten (a stack
 * overflow, a task deleted without a word): it and those above it go. */
MCUPROF_NOINSTR static int take_stack(uintptr_t task)
{
    struct mcuprof_shadow_stack *s = &mcuprof_shadow;
    const struct kept_stack *k = task ? kept_of(task) : 0;
    if (!k)
        return 0;
    uint32_t n = 0;
    while (n < k->depth && !frame_overwritten(&k->frames[n])) {
        mcuprof_shadow_frames[n] = k->frames[n];
        n++;
    }
    s->depth = n;
    s->truncated_sp = k->truncated_sp;
    s->rooted = k->rooted && n > 0u;
    s->cut = k->cut;
    return 1;
}

MCUPROF_NOINSTR void mcuprof_paths_task_new(uintptr_t handle)
{
    struct kept_stack *k;
    /* A task already current when created (FreeRTOS before its scheduler
     * runs) shares its stack with the code that created it: not whole. */
    void *const volatile *current = mcuprof_task_watch.current;
    if (!handle || mcuprof_shadow.busy || !current || (uintptr_t)*current == handle ||
        (k = kept_for(handle)) == 0)
        return;
    k->depth = 0;
    k->truncated_sp = 0;
    k->rooted = 0;
    k->cut = 0; /* seen from its first call: its paths are whole */
}

MCUPROF_NOINSTR void mcuprof_paths_task_gone(uintptr_t handle)
{
    struct kept_stack *k;
    if (handle && !mcuprof_shadow.busy && (k = kept_of(handle)) != 0)
        k->task = 0;
}

MCUPROF_NOINSTR void mcuprof_shadow_forget_tasks(void)
{
    /* what the tasks called while recording was off is not known */
    for (uint32_t i = 0; i < MCUPROF_CFG_PATH_TASKS; i++)
        kept[i].task = 0;
}
#endif

MCUPROF_NOINSTR void mcuprof_shadow_switch_task(uintptr_t task)
{
    struct mcuprof_shadow_stack *s = &mcuprof_shadow;
#if MCUPROF_CFG_PATH_TASKS > 0
    keep_stack();
#endif
    s->owner = task;
#if MCUPROF_CFG_PATH_TASKS > 0
    if (take_stack(task))
        return;
#endif
    s->depth = 0;
    s->rooted = 0;
    s->truncated_sp = 0;
    s->cut = 1;
}
#endif
