/*
 * rtos_config_common.h - the FreeRTOS settings both test architectures
 * share, included at the end of each FreeRTOSConfig.h: the scheduling the
 * tests rely on, static allocation only, and the trace hooks that give
 * mcuprof its task deletions and give the firmware its own measured truth.
 */
#ifndef RTOS_CONFIG_COMMON_H
#define RTOS_CONFIG_COMMON_H

/* Preemption by the tick, and time slicing between the two busy tasks of
 * equal priority: switches come from the tick as well as from blocking. */
#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configTICK_RATE_HZ 1000
#define configMAX_PRIORITIES 5
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
#define configMAX_TASK_NAME_LEN 16
/* Words: the idle task runs the idle hook only (not profiled). */
#define configMINIMAL_STACK_SIZE 256
/* The idle hook waits for an interrupt, so idle time shows as mcuprof's
 * "idle" context. */
#define configUSE_IDLE_HOOK 1
#define configUSE_TICK_HOOK 0
#define configUSE_TIMERS 0
#define configUSE_MUTEXES 0
#define configUSE_COUNTING_SEMAPHORES 0
#define configUSE_TASK_NOTIFICATIONS 1
#define configCHECK_FOR_STACK_OVERFLOW 0

/* Every TCB and stack is the firmware's own static memory: no heap, and the
 * range of valid task handles is known exactly (mcuprof_tasks_watch). */
#define configSUPPORT_STATIC_ALLOCATION 1
#define configSUPPORT_DYNAMIC_ALLOCATION 0
#define configKERNEL_PROVIDED_STATIC_MEMORY 0

/* uxTCBNumber: a number per task created, never reused, which keys the
 * firmware's truth (a TCB address can be reused, the number cannot). */
#define configUSE_TRACE_FACILITY 1

#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskDelay 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_xTaskGetCurrentTaskHandle 1

#ifndef __ASSEMBLER__
#include <stdint.h>

void rtos_assert_failed(const char *file, int line);
#define configASSERT(x)                               \
    do {                                              \
        if (!(x))                                     \
            rtos_assert_failed(__FILE__, __LINE__);   \
    } while (0)

/* The trace hooks (rtos_glue.c, not profiled). They expand inside the
 * kernel's tasks.c, where pxCurrentTCB is the running task's TCB.
 *   - traceTASK_DELETE: mcuprof gives a task deleted its own entry for
 *     good, so a new task reusing the TCB gets a new one.
 *   - traceTASK_CREATE: a call-path build that keeps each task's stack
 *     (rtos_paths_kept) knows the task's paths start at its function.
 *   - traceTASK_SWITCHED_OUT / _IN bracket the change of pxCurrentTCB in
 *     vTaskSwitchContext(); traceTASK_CREATE follows the changes of
 *     pxCurrentTCB before the scheduler runs. Each charges the time since
 *     the last one to the task that was current, by the board's clock:
 *     the truth the test compares mcuprof's task table with. */
void mcuprof_task_deleted(const void *task);
void mcuprof_task_created(const void *task);
void rtos_truth_note(const void *tcb, uint32_t number, const char *name);
void rtos_truth_deleted(uint32_t number);
#define traceTASK_DELETE(pxTCB)                 \
    do {                                        \
        mcuprof_task_deleted(pxTCB);            \
        rtos_truth_deleted((pxTCB)->uxTCBNumber); \
    } while (0)
#define RTOS_TRUTH_NOTE_CURRENT() \
    rtos_truth_note(pxCurrentTCB, pxCurrentTCB->uxTCBNumber, pxCurrentTCB->pcTaskName)
#define traceTASK_SWITCHED_OUT() RTOS_TRUTH_NOTE_CURRENT()
#define traceTASK_SWITCHED_IN() RTOS_TRUTH_NOTE_CURRENT()
#define traceTASK_CREATE(pxNewTCB)   \
    do {                             \
        mcuprof_task_created(pxNewTCB); \
        RTOS_TRUTH_NOTE_CURRENT();   \
    } while (0)
#endif

#endif
