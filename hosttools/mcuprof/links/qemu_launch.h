/*
 * qemu_launch.h - run QEMU as a child that never outlives the tool: in a
 * private temporary working directory (where semihosting opens its
 * files), apart from the console's Ctrl-C (the tool gets it, and
 * decides), with nothing on its standard input, killed with the tool if
 * the tool dies, and killed, reaped and its directory removed by
 * mp_qemu_end whatever happened before.
 *
 * One file an OS: qemu_launch_posix.c (fork and exec in its own process
 * group, PR_SET_PDEATHSIG, /proc/net/tcp), qemu_launch_win32.c
 * (CreateProcessW in a Job object that kills it when the tool's last
 * handle closes, GetTcpTable).
 */
#ifndef MCUPROF_QEMU_LAUNCH_H
#define MCUPROF_QEMU_LAUNCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct mp_qemu {
    intptr_t child;      /* POSIX: its pid; Windows: its process HANDLE; 0 when none runs */
    intptr_t job;        /* Windows: the Job object holding it, 0 none */
    char dir[4096];      /* its working directory (UTF-8), "" when none */
    int exited;          /* reaped: how it ended below */
    int normal;          /* it exited by itself: code is its exit status */
    int code;
    char how[64];        /* "exited 3", "was killed by SIGSEGV", "crashed (exception 0xC0000005)" */
};

/* Where NAME is on PATH, into BUF: 0, or -1 when it is not there (on
 * Windows, NAME.exe). A NAME with a directory is taken as it is. */
int mp_find_program(const char *name, char *buf, size_t size);

/* What to do when the QEMU of the Debian package PACKAGE is missing:
 * "install the Debian package ...", or on Windows where to get QEMU. */
const char *mp_qemu_install_hint(const char *package, char *buf, size_t size);

/* PATH made absolute (from the current directory), into BUF: 0, or -1
 * (errno) when it cannot be. */
int mp_absolute_path(const char *path, char *buf, size_t size);

/* A TCP port on 127.0.0.1 that nobody listened on a moment ago, or 0. */
unsigned mp_free_tcp_port(void);

/* Whether something listens on TCP PORT of 127.0.0.1 (or any address),
 * from the system's table: asked without connecting, as a connection to
 * QEMU's gdbstub would attach to it. */
int mp_tcp_listening(unsigned port);

/* ARGV as one line the host's shell reads back as ARGV, on F. */
void mp_qemu_print_command(FILE *f, char *const argv[]);

/* Open (create, truncate) PATH for QEMU's console: a descriptor, or -1
 * with errno (EINTR: a signal while a FIFO waited for its reader). */
int mp_qemu_console_open(const char *path);
void mp_qemu_console_close(int fd);

/* Make the working directory and start ARGV[0] (a path) in it, its output
 * and errors on CONSOLE_FD (-1: the tool's own). Reports and returns -1. */
int mp_qemu_start(struct mp_qemu *q, char *const argv[], int console_fd);

/* Reap the child if it ended: 1 ended (q->normal, q->code, q->how), 0
 * still running. */
int mp_qemu_poll(struct mp_qemu *q);

/* The file the firmware left in Q's directory: WANT if it is there, else
 * the only file whose name ends in SUFFIX; its name into NAME. 0, or -1
 * when there is none. */
int mp_qemu_find_file(const struct mp_qemu *q, const char *want, const char *suffix, char *name, size_t size);

/* Kill the child if it runs, reap it, remove the working directory and
 * what it holds (on POSIX with SIGINT, SIGTERM and SIGHUP held until
 * done). Safe to call twice, and on a Q never started (zeroed). */
void mp_qemu_end(struct mp_qemu *q);

#endif /* MCUPROF_QEMU_LAUNCH_H */
