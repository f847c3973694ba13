/*
 * mcuprof.h - the target runtime's API.
 *
 * Build your firmware with -pg (compile only, not link) and
 * -fno-optimize-sibling-calls, link the runtime (built WITHOUT -pg) and
 * place its RAM region with linker/mcuprof.ld. Then:
 *
 *   mcuprof_init();                       once, after .data/.bss are set up
 *   mcuprof_sampler_start(timer_hz, 10000);   or feed your own timer
 *   mcuprof_start();                      ... code of interest ...
 *   mcuprof_stop();
 *   mcuprof_write_semihosting("mcuprof.img");   or let a host pull the image
 *
 * and run `mcuprof convert mcuprof.img -o gmon.out` on the host.
 */
#ifndef MCUPROF_H
#define MCUPROF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Zero the tables and counters and fill in the image header (geometry,
 * text ranges, build-id). Profiling stays off. Call once before anything
 * else; calling it again discards everything recorded. */
void mcuprof_init(void);

/* Start recording call arcs and histogram samples. */
void mcuprof_start(void);

/* Stop recording; what was recorded stays in the image. */
void mcuprof_stop(void);

/* Zero arcs, bins and loss counters, keep the geometry and the on/off
 * state, and bump the header's generation count. */
void mcuprof_reset(void);

/* BSD compatibility: moncontrol(0) stops, any other value starts. */
void moncontrol(int mode);

/* What mcuprof_sampler_start() and mcuprof_sampler_set_clock() return on
 * bad input (nothing is started, nothing falls back silently): */
#define MCUPROF_OK 0           /* started */
#define MCUPROF_ERR_RATE (-1)   /* rate_hz is 0 or above timer_hz */
#define MCUPROF_ERR_PERIOD (-2) /* timer_hz / rate_hz (plus the dither) is a period the
                                 * timer cannot count (SysTick: 2 to 2^24 ticks) */
#define MCUPROF_ERR_JITTER (-3) /* the period is too short to dither: fewer than 2 ticks
                                 * of jitter, or (SysTick) under twice the shortest
                                 * period the interrupt can keep up with (128 ticks);
                                 * lower the rate or build with MCUPROF_CFG_JITTER_PERCENT=0 */
#define MCUPROF_ERR_RUNNING (-4) /* mcuprof_sampler_set_clock() while the sampler runs */
#define MCUPROF_ERR_ARGUMENT (-5) /* mcuprof_tasks_watch(): a NULL or misaligned pointer,
                                   * or an empty range */
#define MCUPROF_ERR_NO_TABLE (-6) /* mcuprof_tasks_watch() in a build without a task
                                   * table (MCUPROF_CFG_TASKS 0) */

/* Start the sampler timer, rate_hz interrupts a second on average, and
 * record the rate, the mean period and the dither in the image. timer_hz is
 * the frequency the timer counts at. Each period is dithered around the
 * mean (MCUPROF_CFG_JITTER_PERCENT, see mcuprof_config.h); periods that
 * pass without a sample are counted in the image's missed_periods where the
 * core can tell (missed_source). Returns MCUPROF_OK or an MCUPROF_ERR_*.
 *   Cortex-M: SysTick on the processor clock (timer_hz = the core clock);
 *     put mcuprof_sample_isr in the SysTick vector (the runtime's default
 *     SysTick_Handler does exactly that): it also sets the next period.
 *     Missed periods are measured with a clock registered with
 *     mcuprof_sampler_set_clock(), else with the DWT cycle counter where
 *     it counts (ARMv7-M, ARMv8-M Mainline; the sampler enables it), else
 *     not at all (SysTick alone cannot tell).
 *   RISC-V: the machine timer (timer_hz = the mtime frequency); the trap
 *     entry must reach mcuprof_mtimer_isr (mcuprof_trap_entry does). mtime
 *     measures missed periods exactly. */
int mcuprof_sampler_start(uint32_t timer_hz, uint32_t rate_hz);

/* Register a clock that measures missed sampler periods (NULL: none):
 *   now()  returns a free-running 32-bit up-counter that wraps at 2^32;
 *   it counts at timer_hz, the sampler timer's rate (e.g. a hardware timer);
 *   it is called from the sampler interrupt, once per sample: keep it short;
 *   call this before mcuprof_sampler_start() (MCUPROF_ERR_RUNNING otherwise);
 *   Cortex-M: preferred to the DWT cycle counter; RISC-V: unused (mtime is exact).
 * Returns MCUPROF_OK or MCUPROF_ERR_RUNNING. */
int mcuprof_sampler_set_clock(uint32_t (*now)(void));

/* Stop the sampler timer. */
void mcuprof_sampler_stop(void);

/* Record the rate of a sampler you drive yourself (gprof needs it to turn
 * samples into seconds). */
void mcuprof_set_sample_rate(uint32_t rate_hz);

/* Weak, empty by default: define it to run your own tick work (an RTOS
 * tick, clearing a timer's interrupt flag) after each sample, from the same
 * interrupt. It runs as an ordinary C function. */
void mcuprof_sample_isr_chain(void);

/* Count one sample at pc. For firmware whose timer handler already knows
 * the interrupted PC. Must not be re-entered (call it from one interrupt
 * priority only). It neither dithers nor counts missed periods: with
 * mcuprof_sampler_start(), use mcuprof_sample_isr (Cortex-M) or
 * mcuprof_mtimer_isr (RISC-V), which do. */
void mcuprof_sample_pc(uintptr_t pc);

/* The same, for a timer handler that knows what it interrupted: CONTEXT is
 * an MCUPROF_CTX_* key (image.h), e.g. MCUPROF_CTX_THREAD when it
 * interrupted task or main-loop code. */
void mcuprof_sample_pc_in(uintptr_t pc, uint32_t context);

/* RTOS tasks (MCUPROF_CFG_TASKS entries; 0 by default): count each sample
 * also by the task that was running. CURRENT is where the kernel keeps
 * the running task's handle (FreeRTOS: &pxCurrentTCB); NAME, when not
 * NULL, returns a task's name and is called once per task, from the
 * sampler's interrupt, when the task is first seen (FreeRTOS:
 * pcTaskGetName); LOW..HIGH (HIGH 0: anywhere) is where handles may point
 * (the kernel's heap): another value is counted as invalid in the table,
 * never passed to NAME. Returns MCUPROF_OK, MCUPROF_ERR_ARGUMENT or
 * MCUPROF_ERR_NO_TABLE. */
int mcuprof_tasks_watch(void *const volatile *current, const char *(*name)(const void *task),
                        uintptr_t low, uintptr_t high);

/* A task is deleted (FreeRTOS: traceTASK_DELETE): its entry keeps its
 * samples, and a new task that reuses the handle gets an entry of its own. */
void mcuprof_task_deleted(const void *task);

/* A task is created (FreeRTOS: traceTASK_CREATE), before it first runs.
 * Call-path builds that keep each task's shadow stack (PATH_TASKS) then
 * know that its paths start at its task function: they are whole, not
 * flagged CUT. Without the call (tasks created before recording started,
 * or a kernel without the hook) a task's paths are flagged CUT, as they
 * may lack frames from before it was first seen. */
void mcuprof_task_created(const void *task);

/* Write the image to a file on the debug host through semihosting. Returns
 * 0, or -1 if no debugger answered (see mcuprof_hardfault_isr: without it a
 * semihosting call with no debugger attached locks the core up), the file
 * could not be opened or not all bytes were written. Recording is paused
 * while the image is written. */
int mcuprof_write_semihosting(const char *path);

#if defined(__arm__)
/* Exception entry that samples the interrupted PC (read from the stacked
 * exception frame, MSP or PSP as EXC_RETURN says), then tail-calls
 * mcuprof_sample_isr_chain(). Place it in the vector of SysTick or of any
 * periodic timer. */
void mcuprof_sample_isr(void);

/* HardFault entry that turns a semihosting BKPT with no debugger attached
 * into a failed call (r0 = -1) and resumes after it, so firmware runs on.
 * Any other fault goes to mcuprof_hardfault_chain(), weak, which spins by
 * default: define it to keep your own fault handling. */
void mcuprof_hardfault_isr(void);
void mcuprof_hardfault_chain(void);
#endif

#if defined(__riscv)
/* Trap entry (direct mode, for mtvec): samples on the machine timer
 * interrupt, turns a semihosting ebreak with no debugger attached into a
 * failed call (a0 = -1) and resumes after it, and passes every other trap to
 * mcuprof_trap_chain(), weak, which spins by default. */
void mcuprof_trap_entry(void);
void mcuprof_trap_chain(uintptr_t mcause, uintptr_t mepc);

/* For firmware with its own trap handler: call this on the machine timer
 * interrupt with the interrupted PC (mepc). It samples, sets the next
 * compare value and calls mcuprof_sample_isr_chain(). */
void mcuprof_mtimer_isr(uintptr_t mepc);

/* The same, with SP the interrupted code's stack pointer (where your trap
 * entry found it, before it pushed anything; with a separate interrupt
 * stack, as FreeRTOS's port has, the one the interrupted code had: see
 * docs/paths.md). Call-path builds (MCUPROF_CFG_PATHS > 0) take the live
 * frames at SP; other builds ignore it, so a port can always call this.
 * mcuprof_mtimer_isr() alone takes its own stack pointer instead, which
 * lies below the interrupted code's only on the same stack.
 * mcuprof_trap_entry needs neither: it records the stack pointer itself. */
void mcuprof_mtimer_isr_sp(uintptr_t mepc, uintptr_t sp);

/* An RTOS tick on the machine timer the sampler uses: TICK is called from
 * mcuprof_mtimer_isr() (or the runtime's trap entry) every PERIOD timer
 * ticks, on a fixed grid of its own, independent of the sampler's dithered
 * sample times, and also while the sampler is stopped. For an RTOS whose
 * port would otherwise own the machine timer (FreeRTOS: build its port
 * without MTIME, let its trap handler call mcuprof_mtimer_isr() on the
 * machine timer interrupt, and make TICK run xTaskIncrementTick()). TICK 0
 * removes it. Returns MCUPROF_OK or MCUPROF_ERR_ARGUMENT (PERIOD 0). */
int mcuprof_mtimer_set_tick(uint32_t period, void (*tick)(void));
#endif

/* Address and size of the profile image, for custom transports. */
const void *mcuprof_image(void);
uint32_t mcuprof_image_size(void);

#ifdef __cplusplus
}
#endif

#endif /* MCUPROF_H */
