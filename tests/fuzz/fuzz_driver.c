/*
 * fuzz_driver.c - main() for every fuzz target (fuzz_KIND.c).
 *
 *   fuzz_KIND FILE|DIR...
 *       run every file (a directory: every file in it) once; a crash or a
 *       sanitizer report ends the process with a failure. This is how
 *       AFL++ runs it (FILE = @@) and how the regression test replays
 *       tests/fuzz/regressions/.
 *   fuzz_KIND --mutate SECONDS --crashes DIR CORPUS_DIR...
 *       a built-in coverage-guided mutation loop, for when no AFL++ is
 *       installed: mutates the corpus, keeps inputs that reach new code
 *       (edges counted through GCC's -fsanitize-coverage=trace-pc), runs
 *       them in a child process, and saves every input that crashed it or
 *       ran longer than HANG_MS to DIR. Prints executions, time and corpus
 *       size; exits 1 when something was saved.
 */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS and usleep: not C11 */

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_INPUT (256u << 10)
#define MAX_CORPUS 4096u
#define MAP_SIZE (1u << 16)
/* Wall time first, then CPU time (confirm_hang): an input runs in
 * milliseconds, but ctest runs QEMU tests beside this one and a loaded
 * machine can stall a process for seconds. A real hang never ends, so a
 * generous limit loses nothing. */
#define HANG_MS 15000u

/* ---- coverage: GCC calls this at every basic block it instrumented ---- */

static uint8_t *edges;      /* shared with the parent: MAP_SIZE counters */
static uintptr_t prev_pc;

void __sanitizer_cov_trace_pc(void);
void __sanitizer_cov_trace_pc(void)
{
    uintptr_t pc = (uintptr_t)__builtin_return_address(0);

    if (edges) {
        edges[(pc ^ prev_pc) % MAP_SIZE]++;
        prev_pc = pc >> 1;
    }
}

/* ---- files ---- */

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = malloc(FUZZ_MAX_INPUT);

    if (!f || !buf) {
        fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    *len = fread(buf, 1, FUZZ_MAX_INPUT, f);
    fclose(f);
    return buf;
}

/* Call FN for every regular file named by PATH (a file or a directory). */
static void each_file(const char *path, void (*fn)(const char *path, void *ctx), void *ctx)
{
    struct stat st;
    DIR *d;
    struct dirent *e;

    if (stat(path, &st) != 0) {
        fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    if (!S_ISDIR(st.st_mode)) {
        fn(path, ctx);
        return;
    }
    d = opendir(path);
    while (d && (e = readdir(d)) != NULL) {
        char sub[4096];

        if (e->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
        if (stat(sub, &st) == 0 && S_ISREG(st.st_mode))
            fn(sub, ctx);
    }
    if (d)
        closedir(d);
}

/* The input being replayed, named when the process dies of it: by a
 * sanitizer's report (its death callback, where the sanitizers are
 * linked) or by an abort. */
static const char *replaying;

void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static void name_input(void)
{
    if (replaying)
        fprintf(stderr, "fuzz: the input that failed: %s\n", replaying);
}

static void name_input_and_abort(int sig)
{
    name_input();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void replay_one(const char *path, void *ctx)
{
    size_t len;
    uint8_t *buf = read_all(path, &len);

    (*(unsigned *)ctx)++;
    replaying = path;
    LLVMFuzzerTestOneInput(buf, len);
    replaying = NULL;
    free(buf);
}

/* ---- the mutation loop ---- */

struct input {
    uint8_t *data;
    size_t len;
};

static struct input corpus[MAX_CORPUS];
static unsigned ncorpus;
static uint8_t seen[MAP_SIZE]; /* edges ever reached (parent's view) */

/* What the child shares with the parent: the input it is running, when it
 * began, and how many it ran. */
struct shared {
    uint64_t execs;
    uint64_t started_ms; /* 0 between inputs */
    size_t len;
    uint8_t data[FUZZ_MAX_INPUT];
    uint8_t edges[MAP_SIZE];
    size_t new_len;      /* an input that reached new edges, for the parent */
    uint8_t new_data[FUZZ_MAX_INPUT];
    int has_new;
};

static uint64_t now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return n ? (uint32_t)(rng_state % n) : 0;
}

static void add_corpus(const uint8_t *data, size_t len)
{
    struct input *in;

    if (ncorpus == MAX_CORPUS)
        return;
    in = &corpus[ncorpus];
    in->data = malloc(len ? len : 1);
    if (!in->data)
        exit(2);
    memcpy(in->data, data, len);
    in->len = len;
    ncorpus++;
}

static void load_seed(const char *path, void *ctx)
{
    size_t len;
    uint8_t *buf = read_all(path, &len);

    (void)ctx;
    add_corpus(buf, len);
    free(buf);
}

/* One mutation of BUF (LEN bytes, capacity FUZZ_MAX_INPUT) in place. */
static size_t mutate(uint8_t *buf, size_t len)
{
    static const uint32_t interesting[] = {0, 1, 2, 4, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000,
                                           0x7fffffff, 0x80000000u, 0xffffffffu, 256, 0x3000};
    unsigned k, rounds = 1 + rnd(4);

    for (k = 0; k < rounds; k++) {
        size_t pos = len ? rnd((uint32_t)len) : 0, n;
        uint32_t v;

        switch (rnd(7)) {
        case 0: /* flip a bit */
            if (len)
                buf[pos] ^= (uint8_t)(1u << rnd(8));
            break;
        case 1: /* a random byte */
            if (len)
                buf[pos] = (uint8_t)rnd(256);
            break;
        case 2: /* an interesting 32-bit value, aligned, either byte order */
            pos &= ~(size_t)3;
            if (pos + 4 <= len) {
                v = interesting[rnd(sizeof(interesting) / sizeof(interesting[0]))];
                if (rnd(2))
                    v = __builtin_bswap32(v);
                memcpy(buf + pos, &v, 4);
            }
            break;
        case 3: /* add or subtract a little */
            if (len)
                buf[pos] = (uint8_t)(buf[pos] + rnd(33) - 16);
            break;
        case 4: /* cut the tail */
            len = pos;
            break;
        case 5: /* duplicate a chunk */
            n = rnd(64);
            if (pos + n <= len && len + n <= FUZZ_MAX_INPUT) {
                memmove(buf + pos + n, buf + pos, len - pos);
                len += n;
            }
            break;
        default: /* splice in a piece of another input */
            if (ncorpus) {
                const struct input *o = &corpus[rnd(ncorpus)];
                size_t from = o->len ? rnd((uint32_t)o->len) : 0;

                n = rnd(256);
                if (n > o->len - from)
                    n = o->len - from;
                if (pos + n <= len)
                    memcpy(buf + pos, o->data + from, n);
            }
            break;
        }
    }
    return len;
}

/* The child: mutate and run until killed, telling the parent about every
 * input that reached new edges. */
static void child_loop(struct shared *sh, uint64_t seed)
{
    static uint8_t buf[FUZZ_MAX_INPUT];

    rng_state ^= seed * 0x2545f4914f6cdd1du;
    edges = sh->edges;
    for (;;) {
        const struct input *in = &corpus[rnd(ncorpus)];
        size_t len, i;
        int fresh = 0;

        memcpy(buf, in->data, in->len);
        len = mutate(buf, in->len);
        memcpy(sh->data, buf, len);
        sh->len = len;
        memset(sh->edges, 0, MAP_SIZE);
        prev_pc = 0;
        sh->started_ms = now_ms();
        LLVMFuzzerTestOneInput(buf, len);
        sh->started_ms = 0;
        sh->execs++;
        for (i = 0; i < MAP_SIZE; i++) {
            if (sh->edges[i] && !seen[i]) {
                seen[i] = 1;
                fresh = 1;
            }
        }
        if (fresh) {
            add_corpus(buf, len);
            if (!sh->has_new) {
                memcpy(sh->new_data, buf, len);
                sh->new_len = len;
                sh->has_new = 1;
            }
        }
    }
}

static unsigned save_finding(const char *dir, const char *kind, const uint8_t *data, size_t len)
{
    static unsigned saved;
    uint64_t h = 1469598103934665603u;
    char path[4096];
    size_t i;
    FILE *f;

    for (i = 0; i < len; i++)
        h = (h ^ data[i]) * 1099511628211u;
    snprintf(path, sizeof(path), "%s/%s-%016llx", dir, kind, (unsigned long long)h);
    f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "fuzz: cannot save %s\n", path);
        exit(2);
    }
    fprintf(stderr, "fuzz: %s saved as %s\n", kind, path);
    return ++saved;
}

/* An input that ran past HANG_MS of wall time, run again alone in a child
 * that may use HANG_MS of CPU time: a hang only if that runs out, so that
 * a machine loaded by other tests reports no false hang. */
static int confirm_hang(const uint8_t *data, size_t len)
{
    int status = 0;
    pid_t pid = fork();

    if (pid < 0)
        return 1; /* cannot tell: keep it */
    if (pid == 0) {
        struct rlimit cpu = {HANG_MS / 1000u, HANG_MS / 1000u + 1u};

        setrlimit(RLIMIT_CPU, &cpu);
        LLVMFuzzerTestOneInput(data, len);
        _exit(0);
    }
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL);
}

static int mutate_main(unsigned seconds, const char *crashes, char **dirs, int ndirs)
{
    struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                             -1, 0);
    uint64_t start = now_ms(), end = start + seconds * 1000ull, execs = 0;
    unsigned found = 0, restarts = 0, seeds;
    int i;

    if (sh == MAP_FAILED) {
        perror("fuzz: mmap");
        return 2;
    }
    for (i = 0; i < ndirs; i++)
        each_file(dirs[i], load_seed, NULL);
    if (ncorpus == 0)
        add_corpus((const uint8_t *)"", 0);
    seeds = ncorpus;
    while (now_ms() < end) {
        pid_t pid;
        int status = 0;

        memset(sh, 0, offsetof(struct shared, data));
        sh->has_new = 0;
        fflush(NULL);
        pid = fork();
        if (pid < 0) {
            perror("fuzz: fork");
            return 2;
        }
        if (pid == 0) {
            child_loop(sh, restarts + 1);
            _exit(0);
        }
        for (;;) {
            uint64_t t = now_ms(), began = sh->started_ms;

            if (waitpid(pid, &status, WNOHANG) == pid)
                break;
            /* collect what the child found, so a restart keeps it */
            if (sh->has_new) {
                add_corpus(sh->new_data, sh->new_len);
                sh->has_new = 0;
            }
            if (t >= end || (began && t - began > HANG_MS)) {
                int hang = began && t - began > HANG_MS;

                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                if (hang && sh->started_ms && confirm_hang(sh->data, sh->len))
                    found = save_finding(crashes, "hang", sh->data, sh->len);
                status = 0;
                break;
            }
            usleep(2000);
        }
        execs += sh->execs;
        if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0))
            found = save_finding(crashes, "crash", sh->data, sh->len);
        restarts++;
    }
    printf("fuzz: %llu executions in %.1f s, corpus %u inputs (%u seeds), %u restarts, %u findings\n",
           (unsigned long long)execs, (double)(now_ms() - start) / 1000.0, ncorpus, seeds, restarts,
           found);
    return found ? 1 : 0;
}

int main(int argc, char **argv)
{
    unsigned n = 0;
    int i;

    if (argc >= 6 && strcmp(argv[1], "--mutate") == 0 && strcmp(argv[3], "--crashes") == 0)
        return mutate_main((unsigned)strtoul(argv[2], NULL, 10), argv[4], argv + 5, argc - 5);
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: %s FILE|DIR...\n"
                        "       %s --mutate SECONDS --crashes DIR CORPUS_DIR...\n", argv[0], argv[0]);
        return 2;
    }
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(name_input);
    signal(SIGABRT, name_input_and_abort);
    signal(SIGSEGV, name_input_and_abort);
    for (i = 1; i < argc; i++)
        each_file(argv[i], replay_one, &n);
    printf("fuzz: %u inputs replayed, none crashed\n", n);
    return 0;
}
