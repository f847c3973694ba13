/*
 * model.h - the one in-memory profile every output and every analysis
 * reads: what the target counted, in 64-bit counts and plain addresses,
 * with every loss counter, and (given the firmware's ELF) the functions
 * with their self samples and calls, and (given its DWARF) source lines.
 *
 * A model comes from a profile image (model_image.c), a gmon.out plus the
 * ELF (model_gmon.c) or a JSON document this tool wrote (json_read.c).
 * Nothing gprof-specific lives here: the 1-bin histogram gprof needs when
 * there is none and the 1 Hz rate for a rate of 0 (profile.c), and the
 * 16-bit bins (gmon_hist16.c), are the gmon writers' business.
 *
 * Addresses are what a reader of the ELF expects: call sites are the
 * return address minus 2 (callsite.h; 0 for a caller outside code) and
 * callees have the Thumb bit cleared.
 */
#ifndef MCUPROF_MODEL_H
#define MCUPROF_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <mcuprof/image.h>

#include "gprof_attrib.h"
#include "image_read.h"

enum mp_model_source { MP_MODEL_IMAGE, MP_MODEL_GMON, MP_MODEL_JSON };

/* A histogram range: bins of (high - low) / nbins bytes. */
struct mp_model_range {
    uint64_t low, high;
    uint64_t nbins;
    uint64_t *bins;   /* nbins counts */
    uint64_t samples; /* their sum */
    uint64_t max_bin;
};

/* One arc: calls from a call site to a callee. */
struct mp_model_arc {
    uint64_t callsite;   /* return address - 2; 0: caller outside code */
    uint64_t callee;     /* callee entry */
    uint64_t count;
    long caller, callee_fn; /* function indices, -1: none (or no ELF) */
    unsigned char saturated; /* the target's counter saturated: a lower bound */
};

/* A function of the ELF, by gprof's symbol rules but for GCC's clones,
 * each of which is a function of its own (elf_funcs.h). NAME is what
 * every output shows: a C++ symbol demangled (cxx_demangle.h), unless
 * --no-demangle; SYMBOL is the ELF's own spelling, what a linker script,
 * pprof's system_name, matching across profiles and GCC's clone suffixes
 * (clone_names.h) need. */
struct mp_model_func {
    const char *name;
    uint64_t addr, end, size; /* end: gprof's extent (next symbol) */
    double self;        /* samples charged to it, exactly as gprof does */
    uint64_t calls;     /* calls into it (sum of its arcs' counts) */
    unsigned char hidden;    /* gprof hides it by default (mcount, ...) */
    unsigned char is_static;
    unsigned char shared;    /* part of a bin it shares with another function */
    const char *file;   /* DWARF declaration (NULL when unknown) */
    unsigned line;
    const char *symbol; /* the ELF symbol; NULL: the same as name */
    long group;         /* the function it is shown with when clones are
                         * grouped (clone_group.c): its origin's index for a
                         * GCC clone or cold part (foo.constprop.0 -> foo),
                         * else its own */
    unsigned char clone; /* its name is a GCC clone's (clone_names.h) */
};

/* F's ELF symbol (mangled for C++). */
static inline const char *mp_model_func_symbol(const struct mp_model_func *f)
{
    return f->symbol ? f->symbol : f->name;
}

struct mp_model;
/* Give F the ELF symbol SYMBOL and the name shown for it: demangled
 * unless --no-demangle (cxx_demangle.h). The one place a model's
 * function gets its name. Returns -1 on OOM (reported). */
int mp_model_name_func(struct mp_model *m, struct mp_model_func *f, const char *symbol);

/* Samples of one source line (DWARF), within one function. */
struct mp_model_line {
    long func;          /* function index, -1 when outside every function */
    const char *file;
    unsigned line;
    uint64_t addr;      /* lowest address of the line's code that has samples */
    double samples;     /* bins split by bytes among the lines they cover */
};

/* One row of the DWARF line table: the code from addr up to the next
 * row's addr (or end) comes from file:line. */
struct mp_model_linerow {
    uint64_t addr, end;
    const char *file;
    unsigned line;
};

/* Samples by what they interrupted (mcuprof/image.h MCUPROF_CTX_*). */
struct mp_model_context {
    uint32_t key;
    uint64_t samples;
};

/* Samples by the RTOS task that was running. */
struct mp_model_task {
    uint64_t handle;     /* 0: no task yet (before the scheduler ran) */
    uint64_t samples;
    const char *name;    /* "" when the firmware gave no name */
    unsigned char deleted;
};

/* A call path the sampler saw (mcuprof/image.h struct mcuprof_path): the
 * functions whose frames were live, outermost first, each as the entry
 * address the call hook saw (Thumb bit cleared), which names its function
 * with mp_model_path_func. A path deeper than the shadow stack
 * (MCUPROF_PATH_GAP) has one 0 frame, the gap, where frames were dropped:
 * every output shows it as MP_PATH_GAP_NAME. */
struct mp_model_path {
    const uint64_t *frames; /* depth addresses */
    unsigned depth;
    unsigned flags;         /* MCUPROF_PATH_*: frames missing */
    long task;              /* the running task, an index into tasks; -1: not known
                             * (no task table, the task had no entry, an older runtime) */
    uint32_t context;       /* what the sample interrupted (MCUPROF_CTX_*), or
                             * MCUPROF_PATH_NO_CONTEXT: not known */
    uint64_t samples;
};
#define MP_PATH_GAP_NAME "[...]"

/* 1 if frame K of P is the gap (MCUPROF_PATH_GAP). */
static inline int mp_model_path_gap(const struct mp_model_path *p, unsigned k)
{
    return (p->flags & MCUPROF_PATH_GAP) && p->frames[k] == 0;
}

/* Where samples the sampler took late landed (mcuprof/image.h struct
 * mcuprof_late): the PC as sampled, the late samples taken there and the
 * missed periods charged to its bin. */
struct mp_model_late {
    uint64_t pc;
    uint64_t samples;
    uint64_t missed;
};

/* An interrupt the sampler cannot preempt (struct mcuprof_blocker). */
struct mp_model_blocker {
    uint32_t source;           /* MCUPROF_CTX_ARM_EXCEPTION | exception, or _RV_INTERRUPT | mcause code */
    unsigned priority;         /* its priority byte when last seen blocking */
    unsigned sampler_priority; /* the sampler's then */
    unsigned flags;            /* MCUPROF_BLOCKER_* */
};

/* Late samples the sampler took where nothing says interrupts were
 * masked (struct mcuprof_held): held off by a handler it cannot preempt,
 * counted in samples_taken and binned nowhere. */
struct mp_model_held {
    uint64_t samples;   /* late samples not binned */
    uint64_t periods;   /* periods missed before them: in missed_periods, in no bin */
    uint32_t threshold; /* the deferral threshold in timer ticks */
    uint64_t scans;     /* times the runtime looked for blockers */
};

/* Everything the target counted that is not in a bin or an arc. */
struct mp_model_counters {
    uint64_t samples_taken;     /* as the header says (0: not recorded) */
    uint64_t binned;            /* sum of every bin */
    uint64_t lost[MP_LOST_COUNT];
    uint64_t missed_periods;
    unsigned missed_source;     /* MCUPROF_MISSED_* */
    unsigned timing_flags;      /* MCUPROF_TIMING_*: with _CHARGED the bins hold the missed periods too */
    uint64_t deferred_samples;  /* samples late by less than a period (MCUPROF_TIMING_DEFERRED) */
    uint64_t arc_table_repairs;
    uint64_t total_calls;       /* sum of every arc */
    uint64_t outside_calls;     /* calls of arcs whose caller is not code */
    uint64_t outside_arcs;      /* those arcs */
    uint64_t saturated_arcs;
    uint64_t saturated_bins;
    uint32_t timer_period;      /* clocks, 0 unknown */
    unsigned jitter_percent;
    uint32_t generation;
};

/* The words of the image's header that no other member of the model
 * holds (mcuprof/image.h struct mcuprof_header, same names): where the
 * image lives and how its tables are laid out, and the live state a host
 * and the runtime exchange. A gmon.out has no header; a document has it
 * when the model it was written from had it. */
struct mp_model_header {
    uint64_t image_addr;        /* where the image lives in target memory */
    uint32_t image_size;
    unsigned header_size;
    uint32_t state;             /* MCUPROF_STATE_* bits */
    uint32_t freeze_request, freeze_ack;
    uint32_t arcs_offset, arcs_capacity, arcs_used;
    unsigned arc_record_size, hash_shift;
    uint32_t buckets_offset, nbuckets, links_offset;
    uint32_t ext_offset;        /* 0: no extension tables */
    uint32_t hist_offset[MCUPROF_MAX_RANGES]; /* of each range's bins (nranges of them) */
};

/* How full an image's spill and path tables were: what `info` says of
 * them beyond what the rest of the model holds. Zeros for a model of
 * anything else (a document does not carry them). */
struct mp_model_tables {
    int has_spill;                /* the spill table (bins past the counter's maximum) */
    uint32_t spill_used, spill_capacity, spill_lost;
    uint64_t spill_samples;       /* what its carries add to the bins */
    uint32_t paths_used, paths_capacity; /* the path table's entries, drained ones included */
    unsigned path_depth_max;      /* frames per entry */
};

struct mp_model {
    const char *name;            /* the input, for messages */
    enum mp_model_source source;
    uint16_t machine;            /* e_machine */
    unsigned ptr_size;           /* 4 or 8 */
    int big;
    uint32_t image_version;      /* 0 when not from an image */
    uint8_t build_id[MCUPROF_BUILD_ID_MAX];
    unsigned build_id_len;
    uint32_t sample_rate_hz;     /* 0: unknown */
    unsigned bin_shift;          /* log2 bytes per bin, 0 unknown */
    unsigned counter_bytes;      /* the target's bin counter width, 0 unknown */

    struct mp_model_counters c;

    int has_header;              /* from an image, or a document that had one */
    struct mp_model_header header;

    struct mp_model_range *ranges;
    size_t nranges;
    struct mp_model_arc *arcs;
    size_t narcs;

    /* Samples by context and by task, when the target kept those tables
     * (has_contexts / has_tasks). */
    int has_contexts, has_tasks;
    struct mp_model_context *contexts;
    size_t ncontexts;
    uint64_t contexts_lost;      /* samples of contexts the table had no room for */
    struct mp_model_task *tasks;
    size_t ntasks;
    uint64_t tasks_lost;         /* samples of tasks the table had no room for */
    uint64_t tasks_invalid;      /* samples whose task handle was unusable */

    /* Samples by call path, when the runtime kept a path table
     * (has_paths); paths with no samples left out. */
    int has_paths;
    struct mp_model_path *paths;
    size_t npaths;
    uint64_t paths_lost;         /* samples that found the path table full */
    uint64_t paths_truncated;    /* samples whose path was deeper than the stack: a gap, or truncated */

    /* Where late samples landed and the interrupts the sampler cannot
     * preempt, when the runtime kept those tables (timing_model.c). */
    int has_late, has_blockers;
    struct mp_model_late *late;  /* in the order the runtime first saw them */
    size_t nlate;
    uint64_t late_lost;          /* late samples that found the table full */
    struct mp_model_blocker *blockers;
    size_t nblockers;
    uint64_t blockers_lost;      /* blockers that found the table full */
    int has_held;                /* the runtime kept the held-off table */
    struct mp_model_held held;   /* zeros without it */

    /* With an ELF (mp_model_attach_elf); NULL/0 without. */
    const char *elf_path;
    struct mp_model_func *funcs; /* sorted by address */
    size_t nfuncs;
    double outside;              /* samples in no function */
    double hidden;               /* samples in functions gprof hides */
    double gprof_total;          /* binned - outside - hidden: gprof's 100 % */
    uint64_t shared_samples;     /* samples in bins two functions share */
    uint64_t shared_bins;        /* those bins */
    struct mp_shared_pair *pairs; /* the functions sharing them, most samples first (at most MP_SHARED_KEEP) */
    size_t npairs;
    unsigned finer_shift;        /* bin shift that puts no two functions in a bin (0: unknown) */
    uint64_t finer_ram;          /* histogram bytes with that shift */
    size_t nclones;              /* functions named as GCC clones or cold parts */
    int clones_grouped;          /* shown with their origin (mp_model_group_clones) */
    uint64_t internal_calls;     /* grouped: calls into a function's own pieces, in no arc */

    /* With DWARF lines (mp_model_attach_lines); NULL/0 without. */
    struct mp_model_line *lines; /* sorted by function, then samples (most first) */
    size_t nlines;
    struct mp_model_linerow *linerows; /* sorted by addr, not overlapping */
    size_t nlinerows;
    int lines_missing;           /* the ELF has no line table: say so */
    int lines_broken;            /* ... because its DWARF is malformed (warned) */

    struct mp_model_tables tables; /* an image's (MP_MODEL_IMAGE) */

    struct mp_arena *arena;      /* owns every string and array above */
};

/* Allocation for a model: everything is freed with the model. */
void *mp_model_alloc(struct mp_model *m, size_t size);          /* zeroed; reports OOM */
const char *mp_model_strdup(struct mp_model *m, const char *s); /* NULL on OOM (reported) */

/* An empty model named NAME. Returns -1 on OOM. */
int mp_model_init(struct mp_model *m, const char *name, enum mp_model_source source);
void mp_model_free(struct mp_model *m);

/* From a validated image: ranges, arcs (call sites mapped), counters,
 * its tables and its header. */
int mp_model_from_image(struct mp_model *m, const struct mp_image *img);

/* From LEN bytes of a JSON document of `convert --format json` (named
 * NAME in messages), functions and source lines included: every error is
 * one line naming the byte offset and what was expected there. */
int mp_model_from_json(struct mp_model *m, const char *name, const uint8_t *data, size_t len);

/* From LEN bytes of a gmon.out (GNU or BSD, byte order and width
 * inferred): repeated records of a range or an arc added up as gprof
 * does; machine 0 until an ELF is attached. */
int mp_model_from_gmon(struct mp_model *m, const char *name, const uint8_t *data, size_t len);

/* Name the functions from the ELF's symbols (gprof's rules, elf_funcs.h):
 * self samples as gprof charges them, calls, arcs' caller and callee. The
 * ELF must be for the model's machine and address width. */
int mp_model_attach_elf(struct mp_model *m, const char *elf_path);

/* The same, except that an ELF of another machine or address width names
 * nothing: 1 when the functions are named, 0 when the ELF is another
 * machine's (the model left without functions), -1 on failure. */
int mp_model_attach_elf_if_same(struct mp_model *m, const char *elf_path);

/* The same from a symbol table already read (elf_funcs.h): its path is
 * the model's elf_path. */
int mp_model_attach_functab(struct mp_model *m, const struct mp_functab *t);

/* Whether this build reads source lines: DWARF needs elfutils' libdw,
 * which a build may lack (CMake's MCUPROF_SOURCE_LINES, no libdw on the
 * host). Without it mp_model_attach_lines gives a warning (MP_NO_LIBDW)
 * and no lines, and a command asked for lines outright fails with it. */
int mp_have_source_lines(void);
#define MP_NO_LIBDW "source lines need libdw, which this build of mcuprof lacks (built without elfutils' libdw)"

/* Self samples per source line from the ELF's DWARF (libdw). An ELF
 * without line information is not an error: lines_missing is set, a
 * warning given, and nlines stays 0. Needs mp_model_attach_elf first. */
int mp_model_attach_lines(struct mp_model *m);

/* The same from an ELF image in memory (SIZE bytes at BUF, copied): the
 * whole line-table path, its checks included, on bytes that need no
 * file. For a fuzz target: mp_model_init(&m, "fuzz", MP_MODEL_IMAGE),
 * this, mp_model_free(&m); m.elf_path, NULL or set, only names the ELF in
 * messages. -1 on a buffer that is no ELF or out of memory (reported). */
int mp_model_lines_from_memory(struct mp_model *m, const void *buf, size_t size);

/* The source line of the code at ADDR: 0 and *FILE, *LINE set, or -1
 * when the line table (or the model's) does not cover it. */
int mp_model_line_at(const struct mp_model *m, uint64_t addr, const char **file, unsigned *line);

/* Index of the first line-table row ending above ADDR (nlinerows when
 * none does): the rows are sorted and disjoint. */
size_t mp_model_row_after(const struct mp_model *m, uint64_t addr);

/* Index of the function holding ADDR, or -1 (needs the ELF). With clones
 * grouped, the index of the function it is shown with. */
long mp_model_find_func(const struct mp_model *m, uint64_t addr);
/* The function of frame K of path P; -1 for the gap or a frame in no
 * function. */
long mp_model_path_func(const struct mp_model *m, const struct mp_model_path *p, unsigned k);

/* Index of the symbol holding ADDR whatever the view, or -1. */
long mp_model_find_symbol(const struct mp_model *m, uint64_t addr);

/* Non-zero when, with clones grouped, a call path's frame INNER right
 * inside OUTER is OUTER's own outlined piece (foo -> foo.part.0): one
 * frame of the source function, not two. */
int mp_model_own_piece(const struct mp_model *m, uint64_t outer, uint64_t inner);

/* How the functions' clones are shown, for every model named from then
 * on (a command's option): 0 each clone and cold part under its own
 * symbol (the default), 1 with its origin. */
void mp_model_set_clone_view(int grouped);
int mp_model_clone_view_grouped(void);

/* The view in words, for the outputs that say which one they show, into
 * BUF: "N GCC clones and cold parts, each its own function
 * (--group-clones: with their origin)" or "N GCC clones and cold parts,
 * grouped with their origin". NULL when M has no clone: both views are
 * the same. */
const char *mp_model_clone_view(const struct mp_model *m, char *buf, size_t size);

/* Function I as shown: its group with clones grouped, else I. */
long mp_model_shown(const struct mp_model *m, long i);

/* Find each function's group from the names (clone_names.h): a clone's
 * origin when one function has that name, else the first clone of that
 * origin, which then shows the origin's name when grouped. Sets nclones. */
int mp_model_find_groups(struct mp_model *m);

/* Show the clones with their origin: each group's self samples and calls
 * in one function, arcs between groups, calls into a .part or .cold
 * piece from its own group (the function's own body, no call of it)
 * removed. Functions must be named; done before the lines are. */
int mp_model_group_clones(struct mp_model *m);

/* Every sample the path table counted: its paths' and those it had no
 * room for, the 100 % of every share measured from paths. */
uint64_t mp_model_path_samples(const struct mp_model *m);

/* The label of task entry TASK (an index into m->tasks) in the outputs:
 * its name, "(no task)" before the scheduler ran, "?" when the firmware
 * gave no name; NULL for -1 (not known). */
const char *mp_model_task_label(const struct mp_model *m, long task);

/* A readable name of context KEY on MACHINE ("thread", "idle", "SysTick",
 * "IRQ 3", "machine timer interrupt" ...), written to BUF. */
const char *mp_context_name(uint16_t machine, uint32_t key, char *buf, size_t size);

/* Samples every share is measured against: the time the sampler could
 * see (image_read.h, struct mp_time_seen). samples_taken less the
 * samples held off, when recorded and not below what was binned or lost,
 * else binned + lost samples. With the missed periods charged to the
 * bins (MCUPROF_TIMING_CHARGED) a share is one of time: plus the missed
 * periods the bins hold (mp_model_charged). */
uint64_t mp_model_samples_total(const struct mp_model *m);

/* The same, whole: the total, the periods charged, the draws. */
void mp_model_time_seen(const struct mp_model *m, struct mp_time_seen *t);

/* The missed periods the bins hold (MCUPROF_TIMING_CHARGED: missed_periods
 * less those before samples held off), else 0. */
uint64_t mp_model_charged(const struct mp_model *m);

/* The late-sample and blocker tables of a validated image, and its
 * timing words (timing_model.c). */
int mp_model_timing_from_image(struct mp_model *m, const struct mp_image *img);

/* The 95 % Wilson interval of a share K of TOTAL (samples, or periods
 * when the bins hold charged ones) for this model (timing_model.c). */
void mp_model_interval(const struct mp_model *m, double k, double total, double *lo, double *hi);

#endif /* MCUPROF_MODEL_H */
