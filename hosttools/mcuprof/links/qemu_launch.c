/*
 * qemu_launch.c - QEMU as a child the tool keeps hold of (qemu_launch.h).
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
    q->pid = fork();
    if (q->pid < 0) {
        q->pid = 0;
        mp_error(argv[0], "cannot start: %s", strerror(errno));
        mp_qemu_end(q);
        return -1;
    }
    if (q->pid == 0) {
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
    setpgid(q->pid, q->pid);
    return 0;
}

int mp_qemu_poll(struct mp_qemu *q)
{
    pid_t r;

    if (q->exited)
        return 1;
    if (!q->pid)
        return 1;
    do
        r = waitpid(q->pid, &q->status, WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == q->pid || (r < 0 && errno == ECHILD)) {
        q->exited = 1;
        q->pid = 0;
        return 1;
    }
    return 0;
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
    if (q->pid && !q->exited) {
        pid_t r;

        kill(q->pid, SIGKILL);
        do
            r = waitpid(q->pid, &q->status, 0);
        while (r < 0 && errno == EINTR);
        q->pid = 0;
        q->exited = 1;
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
