/*
 * qemu_launch_posix.c - QEMU as a child the tool keeps hold of, on POSIX
 * hosts (qemu_launch.h): fork and exec in its own process group.
 */
#define _GNU_SOURCE
#include "qemu_launch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diag.h"

int mp_find_program(const char *name, char *buf, size_t size)
{
    const char *path = getenv("PATH"), *p, *end;

    if (strchr(name, '/'))
        return access(name, X_OK) == 0 && (size_t)snprintf(buf, size, "%s", name) < size ? 0 : -1;
    for (p = path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
        size_t n;
        struct stat st;

        end = strchr(p, ':');
        if (!end)
            end = p + strlen(p);
        n = (size_t)(end - p);
        if ((size_t)snprintf(buf, size, "%.*s%s%s", (int)n, n ? p : ".", "/", name) < size &&
            stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
            return 0;
    }
    return -1;
}

const char *mp_qemu_install_hint(const char *package, char *buf, size_t size)
{
    snprintf(buf, size, "install the Debian package %s", package);
    return buf;
}

int mp_absolute_path(const char *path, char *buf, size_t size)
{
    size_t n;

    if (path[0] == '/') {
        if ((size_t)snprintf(buf, size, "%s", path) >= size)
            return errno = ENAMETOOLONG, -1;
        return 0;
    }
    if (!getcwd(buf, size))
        return -1;
    n = strlen(buf);
    if (n + strlen(path) + 2 > size)
        return errno = ENAMETOOLONG, -1;
    snprintf(buf + n, size - n, "/%s", path);
    return 0;
}

/* The command line as a shell reads it back (run.sh --print-command's
 * quoting). */
void mp_qemu_print_command(FILE *f, char *const argv[])
{
    int i;

    for (i = 0; argv[i]; i++) {
        const char *w = argv[i];
        int plain = w[0] && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=,:+-") ==
                                strlen(w);

        fprintf(f, "%s%s%s%s", i ? " " : "", plain ? "" : "'", w, plain ? "" : "'");
    }
    fprintf(f, "\n");
}

int mp_qemu_console_open(const char *path)
{
    return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
}

void mp_qemu_console_close(int fd)
{
    if (fd >= 0)
        close(fd);
}

unsigned mp_free_tcp_port(void)
{
    struct sockaddr_in a;
    socklen_t len = sizeof(a);
    unsigned port = 0;
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

    if (s < 0)
        return 0;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(s, (struct sockaddr *)&a, sizeof(a)) == 0 && getsockname(s, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    close(s);
    return port;
}

int mp_tcp_listening(unsigned port)
{
    char line[256];
    FILE *f = fopen("/proc/net/tcp", "r");
    int found = 0;

    if (!f)
        return 0;
    while (!found && fgets(line, sizeof(line), f)) {
        unsigned addr, lport, state;

        /* "  0: 0100007F:1F90 00000000:0000 0A ..." (0A: LISTEN) */
        if (sscanf(line, " %*u: %8x:%4x %*8x:%*4x %2x", &addr, &lport, &state) == 3 && lport == port &&
            state == 0x0A && (addr == 0 || addr == 0x0100007F))
            found = 1;
    }
    fclose(f);
    return found;
}

int mp_qemu_start(struct mp_qemu *q, char *const argv[], int console_fd)
{
    const char *tmp = getenv("TMPDIR");
    pid_t parent = getpid();
    sigset_t none;

    memset(q, 0, sizeof(*q));
    if ((size_t)snprintf(q->dir, sizeof(q->dir), "%s/mcuprof-record.XXXXXX", tmp && tmp[0] ? tmp : "/tmp") >=
            sizeof(q->dir) ||
        !mkdtemp(q->dir)) {
        mp_error(q->dir, "cannot make a working directory for QEMU: %s", strerror(errno));
        q->dir[0] = '\0';
        return -1;
    }
    fflush(NULL);
    q->child = fork();
    if (q->child < 0) {
        q->child = 0;
        mp_error(argv[0], "cannot start: %s", strerror(errno));
        mp_qemu_end(q);
        return -1;
    }
    if (q->child == 0) {
        int in = open("/dev/null", O_RDONLY);

        /* dies with the tool, even if the tool is killed outright */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        setpgid(0, 0);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGXFSZ, SIG_DFL);
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (in < 0 || dup2(in, 0) < 0 || chdir(q->dir) != 0 ||
            (console_fd >= 0 && (dup2(console_fd, 1) < 0 || dup2(console_fd, 2) < 0)))
            _exit(127);
        execv(argv[0], argv);
        dprintf(2, "mcuprof: error: %s: cannot run: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    /* and from here too, so no signal to the group races the child's own */
    setpgid((pid_t)q->child, (pid_t)q->child);
    return 0;
}

static const char *sig_name(int sig)
{
    static char buf[32];

    switch (sig) {
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    default:
        snprintf(buf, sizeof(buf), "signal %d", sig);
        return buf;
    }
}

/* Q reaped with waitpid's STATUS. */
static void reaped(struct mp_qemu *q, int status)
{
    q->exited = 1;
    q->child = 0;
    q->normal = WIFEXITED(status);
    q->code = q->normal ? WEXITSTATUS(status) : 0;
    if (q->normal)
        snprintf(q->how, sizeof(q->how), "exited %d", q->code);
    else
        snprintf(q->how, sizeof(q->how), "was killed by %s", WIFSIGNALED(status) ? sig_name(WTERMSIG(status)) : "?");
}

int mp_qemu_poll(struct mp_qemu *q)
{
    pid_t r;
    int status = 0;

    if (q->exited)
        return 1;
    if (!q->child)
        return 1;
    do
        r = waitpid((pid_t)q->child, &status, WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == (pid_t)q->child || (r < 0 && errno == ECHILD)) {
        reaped(q, status);
        return 1;
    }
    return 0;
}

int mp_qemu_find_file(const struct mp_qemu *q, const char *want, const char *suffix, char *name, size_t size)
{
    char path[sizeof(q->dir) + 300];
    size_t ns = strlen(suffix);
    unsigned nfound = 0;
    struct dirent *e;
    DIR *d;

    snprintf(name, size, "%s", want);
    if ((size_t)snprintf(path, sizeof(path), "%s/%s", q->dir, want) < sizeof(path) && access(path, F_OK) == 0)
        return 0;
    if (!(d = opendir(q->dir)))
        return -1;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);

        if (n > ns && strcmp(e->d_name + n - ns, suffix) == 0 && n < size) {
            snprintf(name, size, "%s", e->d_name);
            nfound++;
        }
    }
    closedir(d);
    return nfound == 1 ? 0 : -1;
}

void mp_qemu_end(struct mp_qemu *q)
{
    sigset_t stop, before;

    /* The signals that end the tool wait until QEMU is reaped and its
     * directory removed (a few milliseconds): a third one, which ends
     * the tool at once (interrupt.h), would leave them. */
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    sigprocmask(SIG_BLOCK, &stop, &before);
    if (q->child && !q->exited) {
        pid_t r;
        int status = 0;

        kill((pid_t)q->child, SIGKILL);
        do
            r = waitpid((pid_t)q->child, &status, 0);
        while (r < 0 && errno == EINTR);
        reaped(q, status);
    }
    if (q->dir[0]) {
        DIR *d = opendir(q->dir);
        struct dirent *e;

        while (d && (e = readdir(d)) != NULL)
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                unlinkat(dirfd(d), e->d_name, 0);
        if (d)
            closedir(d);
        rmdir(q->dir);
        q->dir[0] = '\0';
    }
    sigprocmask(SIG_SETMASK, &before, NULL);
}
