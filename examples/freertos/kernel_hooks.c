/*
 * kernel_hooks.c - what the kernel and mcuprof call back, built without
 * -pg like the kernel: the idle task's memory, the failed assertion, the
 * task name mcuprof asks for from its sampler's interrupt, and the
 * profiler's set-up.
 */
#include "app.h"
#include "mcuprof.h"

/* tasks.c: the running task's TCB. mcuprof only compares its value. */
extern void *volatile pxCurrentTCB;

StaticTask_t *app_idle_tcb;
StackType_t *app_idle_stack;

void vApplicationGetIdleTaskMemory(StaticTask_t **tcb, StackType_t **stack, configSTACK_DEPTH_TYPE *words)
{
    *tcb = app_idle_tcb;
    *stack = app_idle_stack;
    *words = APP_STACK_WORDS;
}

void app_assert_failed(const char *file, int line)
{
    (void)file;
    (void)line;
    board_exit(2);
}

/* From the sampler's interrupt, once per task, for a handle inside the
 * declared range: reads the TCB, takes no lock. */
static const char *task_name(const void *task)
{
    return pcTaskGetName((TaskHandle_t)(uintptr_t)task);
}

void app_profile_setup(uintptr_t low, uintptr_t high)
{
    mcuprof_init();
    if (mcuprof_tasks_watch((void *const volatile *)&pxCurrentTCB, task_name, low, high) != MCUPROF_OK)
        board_exit(3);
#if defined(__riscv)
    if (mcuprof_sampler_start(10000000u, SAMPLE_HZ) != MCUPROF_OK) /* virt: mtime at 10 MHz */
        board_exit(3);
#else
    if (mcuprof_sampler_set_clock(board_clock) != MCUPROF_OK ||
        mcuprof_sampler_start(configCPU_CLOCK_HZ, SAMPLE_HZ) != MCUPROF_OK) /* SysTick: the core clock */
        board_exit(3);
#endif
}
