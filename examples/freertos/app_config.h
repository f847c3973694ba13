/*
 * app_config.h - the FreeRTOS settings both architectures share, included
 * at the end of each FreeRTOSConfig.h (cortex-m3/, riscv32/), and the two
 * trace hooks mcuprof needs.
 */
#ifndef APP_CONFIG_H
#define APP_CONFIG_H

#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configTICK_RATE_HZ 1000
#define configMAX_PRIORITIES 5
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
#define configMAX_TASK_NAME_LEN 16
#define configMINIMAL_STACK_SIZE 256
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#define configUSE_TIMERS 0
#define configUSE_MUTEXES 0
#define configUSE_COUNTING_SEMAPHORES 0
#define configUSE_TASK_NOTIFICATIONS 1
#define configCHECK_FOR_STACK_OVERFLOW 0

/* Static memory only: every TCB in one array (main.c), whose bounds are the
 * range of valid task handles mcuprof is given. */
#define configSUPPORT_STATIC_ALLOCATION 1
#define configSUPPORT_DYNAMIC_ALLOCATION 0
#define configKERNEL_PROVIDED_STATIC_MEMORY 0

#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskDelay 1
#define INCLUDE_vTaskSuspend 1

#ifndef __ASSEMBLER__
/* mcuprof: a task deleted keeps its samples in an entry of its own, and a
 * task announced at its creation has whole call paths (PATH_TASKS). */
void mcuprof_task_deleted(const void *task);
void mcuprof_task_created(const void *task);
#define traceTASK_DELETE(pxTCB) mcuprof_task_deleted(pxTCB)
#define traceTASK_CREATE(pxNewTCB) mcuprof_task_created(pxNewTCB)

void app_assert_failed(const char *file, int line);
#define configASSERT(x)                           \
    do {                                          \
        if (!(x))                                 \
            app_assert_failed(__FILE__, __LINE__); \
    } while (0)
#endif

#endif
