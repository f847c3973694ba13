/*
 * main.c - a FreeRTOS application profiled with mcuprof, the only file
 * built with -pg (mcuprof_instrument() in CMakeLists.txt):
 *
 *   control (priority 3)  created first, from main; creates sensor, waits
 *                         for the three workers, then writes the profile
 *   crc, sum (1)          created from main; equal priority, so the tick
 *                         slices between them; both call checksum(), a
 *                         short leaf
 *   sensor (2)            created from control; woken by the peripheral
 *                         interrupt (board.c), filters a block each time
 *   IDLE (0)              the kernel's
 *
 * The profile (mcuprof.img, through semihosting) holds the call graph,
 * the histogram, the samples by task and by context, and the call paths
 * of each task: `mcuprof info`, `mcuprof report`, `mcuprof convert
 * --format folded` (docs/rtos.md).
 */
#include <stdint.h>

#include "app.h"
#include "mcuprof.h"

#define ROUNDS 200u
#define EVENTS 100u
#define BLOCK 256u

/* Every TCB in one array: its bounds are the valid task handles. */
enum { TCB_CONTROL, TCB_CRC, TCB_SUM, TCB_SENSOR, TCB_IDLE, TCB_COUNT };
static StaticTask_t tcbs[TCB_COUNT];
static StackType_t stacks[TCB_COUNT][APP_STACK_WORDS] __attribute__((aligned(16)));
static TaskHandle_t control_task;
static uint8_t block_crc[BLOCK], block_sum[BLOCK];
static int16_t samples[BLOCK];
volatile uint32_t result;

/* A leaf both crc and sum call: the call paths tell which of them spends
 * its time, which gprof's call counts cannot. */
__attribute__((noinline)) uint32_t checksum(const uint8_t *p, uint32_t n)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; i++)
        s = (s << 1 | s >> 31) ^ p[i];
    return s;
}

__attribute__((noinline)) uint32_t crc_block(const uint8_t *p, uint32_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

__attribute__((noinline)) uint32_t sum_block(const uint8_t *p, uint32_t n)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += p[i] * (i + 1u);
    return s;
}

__attribute__((noinline)) int32_t filter(const int16_t *x, uint32_t n)
{
    int32_t y = 0;
    for (uint32_t i = 2; i < n; i++)
        y += (x[i] + 2 * x[i - 1] + x[i - 2]) / 4;
    return y;
}

static TaskHandle_t create(TaskFunction_t fn, const char *name, UBaseType_t prio, unsigned slot)
{
    TaskHandle_t h = xTaskCreateStatic(fn, name, APP_STACK_WORDS, 0, prio, stacks[slot], &tcbs[slot]);
    if (!h)
        board_exit(6);
    return h;
}

/* A worker is done: tell control, then wait for the end. */
static void done(void)
{
    xTaskNotifyGive(control_task);
    vTaskSuspend(NULL);
}

void task_crc(void *arg)
{
    (void)arg;
    for (uint32_t r = 0; r < ROUNDS; r++) {
        block_crc[r % BLOCK] = (uint8_t)r;
        result += crc_block(block_crc, BLOCK);
        result += checksum(block_crc, BLOCK);
    }
    done();
}

void task_sum(void *arg)
{
    (void)arg;
    for (uint32_t r = 0; r < ROUNDS; r++) {
        block_sum[r % BLOCK] = (uint8_t)r;
        result += sum_block(block_sum, BLOCK);
        result += checksum(block_sum, BLOCK);
        result += checksum(block_sum, BLOCK / 2u);
    }
    done();
}

void task_sensor(void *arg)
{
    (void)arg;
    for (uint32_t e = 0; e < EVENTS; e++) {
        (void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY); /* from the interrupt */
        samples[e % BLOCK] = (int16_t)(e * 37u);
        result += (uint32_t)filter(samples, BLOCK);
    }
    done();
}

void task_control(void *arg)
{
    (void)arg;
    board_interrupt_start(create(task_sensor, "sensor", 2, TCB_SENSOR));
    for (unsigned i = 0; i < 3u; i++)
        (void)ulTaskNotifyTake(pdFALSE, portMAX_DELAY);
    board_interrupt_stop();
    vTaskDelay(2); /* a little idle time */
    mcuprof_stop();
    board_exit(mcuprof_write_semihosting("mcuprof.img") == 0 ? 0 : 1);
}

int main(void)
{
    app_idle_tcb = &tcbs[TCB_IDLE];
    app_idle_stack = stacks[TCB_IDLE];
    app_profile_setup((uintptr_t)&tcbs[0], (uintptr_t)&tcbs[TCB_COUNT]);
    mcuprof_start();
    /* control first: FreeRTOS makes the highest-priority task created so
     * far current, and a task already current when created shares main's
     * stack until the scheduler runs (its paths are flagged cut); crc and
     * sum, created after it, are announced before they run: whole paths */
    control_task = create(task_control, "control", 3, TCB_CONTROL);
    (void)create(task_crc, "crc", 1, TCB_CRC);
    (void)create(task_sum, "sum", 1, TCB_SUM);
    vTaskStartScheduler();
    return 7; /* not reached: no memory for the idle task */
}
