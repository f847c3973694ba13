/*
 * mcuprof_config.h - build-time configuration of the target runtime.
 *
 * Every setting is an MCUPROF_CFG_* macro with a default here; override it
 * with -D (mcuprof_instrument() maps its options ARCS, BUCKET_BITS and
 * AUTOSTART onto these). The histogram is configured in the
 * linker fragment instead (linker/mcuprof.ld: __mcuprof_bin_shift), because
 * its size depends on the size of the code, which only the linker knows.
 *
 * This file is read by C and by the assembly hooks.
 */
#ifndef MCUPROF_CONFIG_H
#define MCUPROF_CONFIG_H

/* Arc records: one per distinct (call site, callee) pair the firmware
 * executes, 14 bytes each on 32-bit targets (a 12-byte record and its
 * 2-byte link; 26 on 64-bit). Calls of arcs that find the table full are
 * counted in lost_arcs_table_full, and the arcs already recorded stay
 * exact. 256 covers the demo and small firmware; a 256 KB application
 * typically needs 1000-2000. Records are referred to by 16-bit word
 * offsets, hence the upper bound (checked in mcuprof_layout.h). */
#ifndef MCUPROF_CFG_ARCS
#define MCUPROF_CFG_ARCS 256
#endif

/* log2 of the number of hash buckets (uint16 each). The bucket of a call
 * site is (frompc >> MCUPROF_PORT_HASH_SHIFT) & (buckets - 1). About one
 * bucket per call site keeps most arcs at the head of their chain, which is
 * the only case the assembly fast path handles; a collision costs a walk in
 * C. 2 bytes a bucket, so being generous is cheap. */
#ifndef MCUPROF_CFG_BUCKET_BITS
#define MCUPROF_CFG_BUCKET_BITS 8
#endif

/* 1: mcuprof_init() and mcuprof_start() run from .preinit_array, before any
 * constructor and before main, so the whole program is profiled. The
 * startup code must run the init arrays (newlib's __libc_init_array does).
 * The sampler timer is not started: call mcuprof_sampler_start()
 * (or feed samples from your own timer) when clocks are set up. */
#ifndef MCUPROF_CFG_AUTOSTART
#define MCUPROF_CFG_AUTOSTART 0
#endif

/* Dither of the sampling period, in percent of the mean period P. Sample n
 * is taken at n * P + u_n with u_n uniform in [0, J), J = P * percent / 100,
 * so every instant is equally likely to be sampled, also in code that runs
 * in step with the sampler (a loop under QEMU -icount, a control task on
 * the same tick), and the mean rate stays exact: periods are P + u_n -
 * u_{n-1}, whose sum telescopes. 100 (the default) dithers over the whole
 * period; 0 gives a fixed period (for benchmarks and comparisons). */
#ifndef MCUPROF_CFG_JITTER_PERCENT
#define MCUPROF_CFG_JITTER_PERCENT 100
#endif

/* Seed of the dither's pseudo-random sequence (xorshift32, non-zero). Fixed,
 * so that runs under QEMU -icount are reproducible sample for sample. */
#ifndef MCUPROF_CFG_JITTER_SEED
#define MCUPROF_CFG_JITTER_SEED 0x2545F491u
#endif

#define MCUPROF_BUCKETS (1 << MCUPROF_CFG_BUCKET_BITS)

#if MCUPROF_CFG_ARCS < 1
#error "MCUPROF_CFG_ARCS must be at least 1"
#endif
#if MCUPROF_CFG_BUCKET_BITS < 1 || MCUPROF_CFG_BUCKET_BITS > 16
#error "MCUPROF_CFG_BUCKET_BITS must be 1..16"
#endif

#if MCUPROF_CFG_JITTER_PERCENT < 0
#error "MCUPROF_CFG_JITTER_PERCENT must be 0..100"
#endif
#if MCUPROF_CFG_JITTER_PERCENT > 100
#error "MCUPROF_CFG_JITTER_PERCENT: jitter wider than the period (at most 100)"
#endif
#if (MCUPROF_CFG_JITTER_SEED) == 0
#error "MCUPROF_CFG_JITTER_SEED must not be 0 (xorshift stays at 0)"
#endif

/* Entries of the context table: each sample is also counted by what it
 * interrupted (thread, idle in WFI/WFE, which exception or interrupt
 * handler). Thread, idle and idle periods slept through have fixed
 * entries; each handler seen takes one more, and samples of handlers
 * beyond the table are counted as lost in it. 8 bytes an entry plus 48;
 * 8 is plenty for most firmware. 0 (the default) leaves the table out and
 * the sampler as short as it can be: every instruction of the sampler's
 * interrupt is time the profiled code does not get. */
#ifndef MCUPROF_CFG_CONTEXTS
#define MCUPROF_CFG_CONTEXTS 0
#endif

/* Entries of the RTOS task table (32 bytes each, names included): with
 * mcuprof_tasks_watch() each sample is also counted by the task that was
 * running. 0 (the default) leaves the table out: bare-metal firmware has
 * no tasks. */
#ifndef MCUPROF_CFG_TASKS
#define MCUPROF_CFG_TASKS 0
#endif

/* Entries of the call-path table (docs/paths.md): the call hook keeps a
 * shadow stack of the profiled functions that are live, and each sample
 * is also counted by the path it interrupted, outermost function first.
 * An entry is 8 + MCUPROF_CFG_PATH_DEPTH * pointer-size bytes in the image
 * plus 8 bytes of index in RAM; samples of paths beyond the table are
 * counted as lost in it. 0 (the default) leaves the mode out: the hook and
 * the sampler are exactly as without it. */
#ifndef MCUPROF_CFG_PATHS
#define MCUPROF_CFG_PATHS 0
#endif

/* Frames of the shadow stack and of each recorded path. A deeper call
 * chain drops its outermost frames: its paths are flagged TRUNCATED and
 * counted in the table's invalid counter. 16 bytes of RAM a frame (32 on
 * RV64) for the shadow stack, pointer-size bytes a frame in each entry. */
#ifndef MCUPROF_CFG_PATH_DEPTH
#define MCUPROF_CFG_PATH_DEPTH 16
#endif
/* Tasks whose shadow stacks are kept across task switches (with PATHS and
 * TASKS): a task switched back in finds its frames again, so its paths
 * stay whole through time slicing and preemption. 0 (the default): the
 * stack is emptied at every switch and the paths recorded after it are
 * flagged CUT. RAM a task: 16 bytes + PATH_DEPTH frames of 24 bytes
 * (Cortex-M; 20 on RV32, 40 on RV64). */
#ifndef MCUPROF_CFG_PATH_TASKS
#define MCUPROF_CFG_PATH_TASKS 0
#endif
#if MCUPROF_CFG_PATH_TASKS < 0 || MCUPROF_CFG_PATH_TASKS > 256
#error "MCUPROF_CFG_PATH_TASKS must be 0..256"
#endif
#if MCUPROF_CFG_PATH_TASKS > 0 && (MCUPROF_CFG_PATHS == 0 || MCUPROF_CFG_TASKS == 0)
#error "MCUPROF_CFG_PATH_TASKS needs MCUPROF_CFG_PATHS and MCUPROF_CFG_TASKS"
#endif
#if MCUPROF_CFG_PATHS < 0 || MCUPROF_CFG_PATHS > 16384
#error "MCUPROF_CFG_PATHS must be 0..16384 (the index holds 16-bit entry numbers)"
#endif
#if MCUPROF_CFG_PATH_DEPTH < 2 || MCUPROF_CFG_PATH_DEPTH > 1024
#error "MCUPROF_CFG_PATH_DEPTH must be 2..1024"
#endif

/* Entries of the spill table (8 bytes each, plus a 24-byte table header):
 * a histogram bin that passes 65,535 samples wraps to 0 and its entry
 * counts the carry, so no hot bin saturates. A bin needs an entry only
 * once it has taken 65,536 samples (6.5 s of all the time at 10 kHz), so
 * 32 entries keep an hour at 10 kHz exact unless more than 32 bins each
 * take more than 1.8 % of it; past that the bin stays at 65,535 and the
 * samples are counted as saturated. 0 leaves the table out (bins then
 * saturate at 65,535). */
#ifndef MCUPROF_CFG_SPILL
#define MCUPROF_CFG_SPILL 32
#endif

/* Entries of the late-sample table (16 bytes each, plus 24): the PCs
 * where samples taken late landed (after interrupts were unmasked, or
 * after a handler the sampler cannot preempt), with the periods charged
 * there. One entry per such place; 16 cover the critical sections of most
 * firmware. 0 leaves the table out (the totals are still counted). */
#ifndef MCUPROF_CFG_LATE
#define MCUPROF_CFG_LATE 16
#endif

/* Entries of the blocker table (8 bytes each, plus 24): interrupts found
 * enabled at a priority the sampler cannot preempt. 0 leaves it out. */
#ifndef MCUPROF_CFG_BLOCKERS
#define MCUPROF_CFG_BLOCKERS 8
#endif

#if MCUPROF_CFG_SPILL < 0 || MCUPROF_CFG_SPILL > 65536
#error "MCUPROF_CFG_SPILL must be 0..65536"
#endif
#if MCUPROF_CFG_LATE < 0 || MCUPROF_CFG_LATE > 4096
#error "MCUPROF_CFG_LATE must be 0..4096"
#endif
#if MCUPROF_CFG_BLOCKERS < 0 || MCUPROF_CFG_BLOCKERS > 512
#error "MCUPROF_CFG_BLOCKERS must be 0..512"
#endif

#endif /* MCUPROF_CONFIG_H */
