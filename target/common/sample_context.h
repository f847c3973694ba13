/*
 * sample_context.h - counting a sample by what it interrupted (the context
 * table) and by the RTOS task that was running (the task table), inline in
 * the sampler's interrupt like the rest of the sample (sample_body.h).
 *
 * The common cases cost a few instructions: a thread-mode sample bumps the
 * fixed thread (or idle) entry, and a task sample bumps the entry of the
 * task seen last. A handler's key is looked up in the few entries in use;
 * a task not seen last takes the slow path, mcuprof_task_resolve()
 * (tasks.c), which the architecture calls as it can afford (sample_body.h
 * returns that it is needed).
 */
#ifndef MCUPROF_SAMPLE_CONTEXT_H
#define MCUPROF_SAMPLE_CONTEXT_H

#include "mcuprof_layout.h"
#include "mcuprof_port.h"
#include "mcuprof_symbols.h"
#include "sample_timing.h"

/* A PC in profiled text with at least the bytes of a WFI before it there:
 * only then is the instruction before it read. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int mcuprof_pc_after_code(uintptr_t pc)
{
    uintptr_t off = pc - MCUPROF_SYM(__mcuprof_range0_low) - MCUPROF_PORT_WAIT_INSN_BYTES;
    return off < MCUPROF_SYM(__mcuprof_range0_size) - MCUPROF_PORT_WAIT_INSN_BYTES;
}

#if MCUPROF_CFG_CONTEXTS > 0
#if MCUPROF_CFG_PATHS > 0
/* The entry the sample was counted in (0: the table was full), for the
 * path of the same sample (path_table.c): one store here, and the path
 * needs no second look at what was interrupted. */
extern struct mcuprof_context *mcuprof_context_hit;
#define MCUPROF_CONTEXT_HIT(entry) (mcuprof_context_hit = (entry))
#else
#define MCUPROF_CONTEXT_HIT(entry) ((void)0)
#endif

/* KEY: MCUPROF_CTX_THREAD, or the handler the architecture found running. */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline void mcuprof_context_count(uintptr_t pc,
                                                                                       uint32_t key)
{
    struct mcuprof_context *c = mcuprof_region.contexts;
    uint32_t missed = mcuprof_missed_pending;
    if (missed)
        mcuprof_missed_pending = 0;
    if (key == MCUPROF_CTX_THREAD) {
        if (mcuprof_pc_after_code(pc) && mcuprof_port_waited_before(pc)) {
            c += MCUPROF_CTX_SLOT_IDLE;
            if (missed)
                mcuprof_count_add_saturating(&c[MCUPROF_CTX_SLOT_IDLE_MISSED - MCUPROF_CTX_SLOT_IDLE].samples,
                                             missed);
        }
    } else {
        struct mcuprof_ext *e = &mcuprof_region.context_ext;
        uint32_t used = e->used, i;
        for (i = MCUPROF_CTX_FIXED; i < used && c[i].key != key; i++)
            ;
        if (i == used) {
            if (used == MCUPROF_CFG_CONTEXTS) {
                mcuprof_count_saturating(&e->lost);
                MCUPROF_CONTEXT_HIT(0);
                return;
            }
            c[i].key = key;
            e->used = used + 1u;
        }
        c += i;
    }
    MCUPROF_CONTEXT_HIT(c);
    mcuprof_count_saturating(&c->samples);
}
#else
#define mcuprof_context_count(pc, key) ((void)(pc), (void)(key))
#endif

#if MCUPROF_CFG_TASKS > 0
/* What mcuprof_tasks_watch() registered (tasks.c). */
struct mcuprof_task_watch {
    void *const volatile *current; /* 0: not watching */
    uint32_t last;                 /* index of the entry hit last */
    uint32_t hit;                  /* the entry this sample was counted in,
                                    * MCUPROF_PATH_NO_TASK: none (call paths) */
};
extern struct mcuprof_task_watch mcuprof_task_watch;

/* Call-path builds key the sample's path by its task (path_table.c): the
 * entry counted is noted here, one store, so that the path needs no
 * second look at the kernel's variable. */
#if MCUPROF_CFG_PATHS > 0
#define MCUPROF_TASK_HIT(index) (mcuprof_task_watch.hit = (index))
#else
#define MCUPROF_TASK_HIT(index) ((void)0)
#endif

/* Returns non-zero when the running task is not the one seen last: then
 * call mcuprof_task_resolve() (not re-entrantly: from the sampler). */
MCUPROF_NOINSTR __attribute__((always_inline)) static inline int mcuprof_task_count(void)
{
    void *const volatile *current = mcuprof_task_watch.current;
    if (!current)
        return 0;
    uint32_t i = mcuprof_task_watch.last;
    struct mcuprof_task *t = &mcuprof_region.tasks[i];
    if (t->handle != (uintptr_t)*current || t->flags)
        return 1;
    MCUPROF_TASK_HIT(i);
    mcuprof_count_saturating(&t->samples);
    return 0;
}
#else
#define mcuprof_task_count() 0
#endif

/* The slow path of mcuprof_task_count(): find or add the running task's
 * entry and count the sample there (tasks.c; a no-op without a table). */
void mcuprof_task_resolve(void);

#endif /* MCUPROF_SAMPLE_CONTEXT_H */
