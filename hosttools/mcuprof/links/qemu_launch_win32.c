/*
 * qemu_launch_win32.c - QEMU as a child the tool keeps hold of, on
 * Windows (qemu_launch.h).
 *
 * CreateProcessW starts it suspended in a new process group (the
 * console's Ctrl-C goes to the tool, not to QEMU), inside a Job object
 * set to kill what it holds when its last handle closes: the tool's,
 * which Windows closes however the tool ends, so QEMU never outlives it
 * (PR_SET_PDEATHSIG on Linux). Its standard input is NUL, its output the
 * console file or the tool's own, and it inherits those handles only
 * (PROC_THREAD_ATTRIBUTE_HANDLE_LIST). Its working directory is a new
 * folder under GetTempPathW. Names cross the API as UTF-16, converted
 * from and to the tool's UTF-8.
 */
#define WIN32_LEAN_AND_MEAN
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <iphlpapi.h>

#include "qemu_launch.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <wchar.h>

#include "diag.h"
#include "wide_name.h"
#include "win_cmdline.h"

/* The longest path or command line handled, in UTF-16 units. */
#define WPATH_MAX 32768

/* UTF-16 W into BUF as UTF-8: 0, or -1 when it does not fit. */
static int narrow(const wchar_t *w, char *buf, size_t size)
{
    char *s = mp_narrow(w);
    int ok = s && strlen(s) < size;

    if (ok)
        memcpy(buf, s, strlen(s) + 1);
    free(s);
    return ok ? 0 : -1;
}

/* GetLastError's text, on one line. */
static const char *win_error(DWORD err)
{
    static char text[256];
    size_t n;

    if (!FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, err, 0, text,
                        sizeof(text), NULL))
        snprintf(text, sizeof(text), "error %lu", (unsigned long)err);
    for (n = strlen(text); n > 0 && (text[n - 1] == '\r' || text[n - 1] == '\n' || text[n - 1] == '.'); n--)
        text[n - 1] = '\0';
    return text;
}

static int is_file(const wchar_t *path)
{
    DWORD a = GetFileAttributesW(path);

    return a != INVALID_FILE_ATTRIBUTES && !(a & FILE_ATTRIBUTE_DIRECTORY);
}

int mp_find_program(const char *name, char *buf, size_t size)
{
    static wchar_t path[WPATH_MAX], cand[WPATH_MAX];
    wchar_t *wname = mp_wide(name), *p, *end, *base;
    const wchar_t *exe;
    DWORD n;
    int found = -1;

    if (!wname)
        return -1;
    /* no extension: the .exe the official QEMU for Windows installs */
    for (base = p = wname; *p; p++)
        if (*p == L'\\' || *p == L'/' || *p == L':')
            base = p + 1;
    exe = wcschr(base, L'.') ? L"" : L".exe";
    if (base != wname) {
        if (_snwprintf(cand, WPATH_MAX, L"%ls%ls", wname, exe) > 0 && is_file(cand))
            found = narrow(cand, buf, size);
        free(wname);
        return found;
    }
    n = GetEnvironmentVariableW(L"PATH", path, WPATH_MAX);
    if (n == 0 || n >= WPATH_MAX)
        path[0] = L'\0';
    for (p = path; found < 0 && *p; p = *end ? end + 1 : end) {
        size_t len;

        end = wcschr(p, L';');
        if (!end)
            end = p + wcslen(p);
        len = (size_t)(end - p);
        /* a folder on PATH may be in quotes */
        if (len >= 2 && p[0] == L'"' && p[len - 1] == L'"') {
            p++;
            len -= 2;
        }
        if (len == 0)
            continue;
        if (_snwprintf(cand, WPATH_MAX, L"%.*ls%ls%ls%ls", (int)len, p,
                       p[len - 1] == L'\\' || p[len - 1] == L'/' ? L"" : L"\\", wname, exe) > 0 &&
            is_file(cand))
            found = narrow(cand, buf, size);
    }
    free(wname);
    return found;
}

const char *mp_qemu_install_hint(const char *package, char *buf, size_t size)
{
    (void)package;
    snprintf(buf, size, "install QEMU for Windows (https://www.qemu.org/download/#windows) and put its folder "
                        "on PATH");
    return buf;
}

int mp_absolute_path(const char *path, char *buf, size_t size)
{
    static wchar_t full[WPATH_MAX];
    wchar_t *w = mp_wide(path);
    DWORD n;

    if (!w)
        return errno = EINVAL, -1;
    n = GetFullPathNameW(w, WPATH_MAX, full, NULL);
    free(w);
    if (n == 0 || n >= WPATH_MAX || narrow(full, buf, size) < 0)
        return errno = ENAMETOOLONG, -1;
    return 0;
}

/* Winsock for the two calls below (WSAStartup counts its callers: one
 * more is harmless). */
static int sockets(void)
{
    static int started;
    WSADATA d;

    if (!started && WSAStartup(MAKEWORD(2, 2), &d) == 0)
        started = 1;
    return started ? 0 : -1;
}

unsigned mp_free_tcp_port(void)
{
    struct sockaddr_in a;
    int len = sizeof(a);
    unsigned port = 0;
    SOCKET s;

    if (sockets() < 0 || (s = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP)) == INVALID_SOCKET)
        return 0;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(s, (struct sockaddr *)&a, sizeof(a)) == 0 && getsockname(s, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    closesocket(s);
    return port;
}

int mp_tcp_listening(unsigned port)
{
    MIB_TCPTABLE *t = NULL;
    ULONG size = 0;
    DWORD i;
    int found = 0;

    if (GetTcpTable(NULL, &size, FALSE) != ERROR_INSUFFICIENT_BUFFER || !(t = malloc(size)))
        return 0;
    if (GetTcpTable(t, &size, FALSE) == NO_ERROR)
        for (i = 0; i < t->dwNumEntries && !found; i++) {
            const MIB_TCPROW *r = &t->table[i];

            if (r->dwState == MIB_TCP_STATE_LISTEN && ntohs((u_short)r->dwLocalPort) == port &&
                (r->dwLocalAddr == 0 || r->dwLocalAddr == htonl(INADDR_LOOPBACK)))
                found = 1;
        }
    free(t);
    return found;
}

/* The command line exactly as CreateProcessW gets it (cmd.exe and
 * PowerShell split it the same way for a program). */
void mp_qemu_print_command(FILE *f, char *const argv[])
{
    static char line[WPATH_MAX * 3];

    if (mp_win_cmdline(argv, line, sizeof(line)) < 0)
        snprintf(line, sizeof(line), "(a command line over %u bytes)", (unsigned)sizeof(line));
    fprintf(f, "%s\n", line);
}

int mp_qemu_console_open(const char *path)
{
    wchar_t *w = mp_wide(path);
    int fd;

    if (!w)
        return errno = EINVAL, -1;
    fd = _wopen(w, _O_WRONLY | _O_CREAT | _O_TRUNC | _O_BINARY | _O_NOINHERIT, _S_IREAD | _S_IWRITE);
    free(w);
    return fd;
}

void mp_qemu_console_close(int fd)
{
    if (fd >= 0)
        _close(fd);
}

/* A new folder under GetTempPathW, its name into Q->dir (UTF-8). */
static int make_dir(struct mp_qemu *q)
{
    static wchar_t tmp[MAX_PATH + 1], dir[MAX_PATH + 64];
    DWORD n = GetTempPathW(MAX_PATH + 1, tmp), err = 0;
    unsigned i;

    if (n == 0 || n > MAX_PATH) {
        mp_error(NULL, "cannot make a working directory for QEMU: no temporary folder (%s)",
                 win_error(GetLastError()));
        return -1;
    }
    for (i = 0; i < 100; i++) {
        _snwprintf(dir, sizeof(dir) / sizeof(dir[0]), L"%lsmcuprof-record.%lu.%lu", tmp,
                   (unsigned long)GetCurrentProcessId(), (unsigned long)(GetTickCount() + i));
        if (CreateDirectoryW(dir, NULL))
            return narrow(dir, q->dir, sizeof(q->dir)) == 0 ? 0 : (RemoveDirectoryW(dir), q->dir[0] = '\0', -1);
        if ((err = GetLastError()) != ERROR_ALREADY_EXISTS)
            break;
    }
    narrow(dir, q->dir, sizeof(q->dir));
    mp_error(q->dir, "cannot make a working directory for QEMU: %s", win_error(err));
    q->dir[0] = '\0';
    return -1;
}

/* H as a handle the child inherits (a copy, closed by the caller). */
static HANDLE inheritable(HANDLE h)
{
    HANDLE dup = NULL;

    if (!h || h == INVALID_HANDLE_VALUE ||
        !DuplicateHandle(GetCurrentProcess(), h, GetCurrentProcess(), &dup, 0, TRUE, DUPLICATE_SAME_ACCESS))
        return NULL;
    return dup;
}

/* Create the process suspended, with only the handles of SI inherited. */
static int create(struct mp_qemu *q, const wchar_t *app, wchar_t *cmd, STARTUPINFOEXW *si, HANDLE *handles,
                  unsigned nhandles, PROCESS_INFORMATION *pi)
{
    static wchar_t wdir[WPATH_MAX];
    SIZE_T attr_size = 0;
    BOOL ok;

    if (MultiByteToWideChar(CP_UTF8, 0, q->dir, -1, wdir, WPATH_MAX) <= 0)
        return -1;
    InitializeProcThreadAttributeList(NULL, 1, 0, &attr_size);
    if (!(si->lpAttributeList = malloc(attr_size)))
        return -1;
    if (!InitializeProcThreadAttributeList(si->lpAttributeList, 1, 0, &attr_size)) {
        free(si->lpAttributeList);
        return -1;
    }
    ok = UpdateProcThreadAttribute(si->lpAttributeList, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, handles,
                                   nhandles * sizeof(HANDLE), NULL, NULL) &&
         CreateProcessW(app, cmd, NULL, NULL, TRUE,
                        CREATE_SUSPENDED | CREATE_NEW_PROCESS_GROUP | EXTENDED_STARTUPINFO_PRESENT, NULL, wdir,
                        &si->StartupInfo, pi);
    DeleteProcThreadAttributeList(si->lpAttributeList);
    free(si->lpAttributeList);
    return ok ? 0 : -1;
}

int mp_qemu_start(struct mp_qemu *q, char *const argv[], int console_fd)
{
    static char line[WPATH_MAX * 3];
    SECURITY_ATTRIBUTES sa = {sizeof(sa), NULL, TRUE};
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limit;
    STARTUPINFOEXW si;
    PROCESS_INFORMATION pi;
    HANDLE in = NULL, out = NULL, err = NULL, job = NULL, list[3];
    wchar_t *app = NULL, *cmd = NULL;
    unsigned n = 0;
    DWORD why = 0;
    int ret = -1;

    memset(q, 0, sizeof(*q));
    if (mp_win_cmdline(argv, line, sizeof(line)) < 0)
        return mp_error(argv[0], "cannot start: its command line is too long or its name holds a '\"'");
    if (!(app = mp_wide(argv[0])) || !(cmd = mp_wide(line))) {
        free(app);
        return mp_error(argv[0], "cannot start: its command line is not UTF-8");
    }
    if (make_dir(q) < 0)
        goto out;
    in = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0, NULL);
    if (console_fd >= 0) {
        out = inheritable((HANDLE)_get_osfhandle(console_fd));
        err = out;
    } else {
        out = inheritable(GetStdHandle(STD_OUTPUT_HANDLE));
        err = inheritable(GetStdHandle(STD_ERROR_HANDLE));
    }
    if (in == INVALID_HANDLE_VALUE || !out || !err) {
        mp_error(argv[0], "cannot start: cannot hand it its input and output (%s)", win_error(GetLastError()));
        goto fail;
    }
    list[n++] = in;
    list[n++] = out;
    if (err != out)
        list[n++] = err;
    memset(&si, 0, sizeof(si));
    si.StartupInfo.cb = sizeof(si);
    si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    si.StartupInfo.hStdInput = in;
    si.StartupInfo.hStdOutput = out;
    si.StartupInfo.hStdError = err;
    /* the job first: the child is in it before it runs an instruction */
    job = CreateJobObjectW(NULL, NULL);
    memset(&limit, 0, sizeof(limit));
    limit.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    if (!job || !SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limit, sizeof(limit))) {
        mp_error(argv[0], "cannot start: no Job object to end it with mcuprof (%s)", win_error(GetLastError()));
        goto fail;
    }
    fflush(NULL);
    if (create(q, app, cmd, &si, list, n, &pi) < 0) {
        why = GetLastError();
        mp_error(argv[0], "cannot start: %s", win_error(why));
        goto fail;
    }
    if (!AssignProcessToJobObject(job, pi.hProcess)) {
        why = GetLastError();
        TerminateProcess(pi.hProcess, 1);
        WaitForSingleObject(pi.hProcess, 5000);
        CloseHandle(pi.hThread);
        CloseHandle(pi.hProcess);
        mp_error(argv[0], "cannot start: cannot put it in a Job object that ends it with mcuprof (%s)",
                 win_error(why));
        goto fail;
    }
    q->child = (intptr_t)pi.hProcess;
    q->job = (intptr_t)job;
    job = NULL;
    ResumeThread(pi.hThread);
    CloseHandle(pi.hThread);
    ret = 0;
    goto out;
fail:
    mp_qemu_end(q);
out:
    if (in && in != INVALID_HANDLE_VALUE)
        CloseHandle(in);
    if (err && err != out)
        CloseHandle(err);
    if (out)
        CloseHandle(out);
    if (job)
        CloseHandle(job);
    free(app);
    free(cmd);
    return ret;
}

/* Q's process ended: how, from its exit code. */
static void reaped(struct mp_qemu *q)
{
    DWORD code = 0;

    GetExitCodeProcess((HANDLE)q->child, &code);
    /* an NTSTATUS error (0xC...): an exception ended it */
    q->normal = code < 0xC0000000u;
    q->code = q->normal ? (int)code : 0;
    if (q->normal)
        snprintf(q->how, sizeof(q->how), "exited %d", q->code);
    else
        snprintf(q->how, sizeof(q->how), "crashed (exception 0x%08lX)", (unsigned long)code);
    CloseHandle((HANDLE)q->child);
    q->child = 0;
    q->exited = 1;
}

int mp_qemu_poll(struct mp_qemu *q)
{
    if (q->exited || !q->child)
        return 1;
    if (WaitForSingleObject((HANDLE)q->child, 0) != WAIT_OBJECT_0)
        return 0;
    reaped(q);
    return 1;
}

/* The files of DIR/PATTERN one by one: FN(name, ctx) for each. */
static unsigned each_file(const char *dir, const wchar_t *pattern, void (*fn)(const wchar_t *name, void *ctx),
                          void *ctx)
{
    static wchar_t spec[WPATH_MAX];
    WIN32_FIND_DATAW e;
    HANDLE h;
    unsigned n = 0;

    if (MultiByteToWideChar(CP_UTF8, 0, dir, -1, spec, WPATH_MAX - 64) <= 0)
        return 0;
    wcscat(spec, L"\\");
    wcscat(spec, pattern);
    if ((h = FindFirstFileW(spec, &e)) == INVALID_HANDLE_VALUE)
        return 0;
    do {
        if (!(e.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)) {
            fn(e.cFileName, ctx);
            n++;
        }
    } while (FindNextFileW(h, &e));
    FindClose(h);
    return n;
}

struct found {
    char *name;
    size_t size;
    int fits;
};

static void note_name(const wchar_t *name, void *ctx)
{
    struct found *f = ctx;

    f->fits = narrow(name, f->name, f->size) == 0;
}

int mp_qemu_find_file(const struct mp_qemu *q, const char *want, const char *suffix, char *name, size_t size)
{
    static wchar_t path[WPATH_MAX], pattern[64];
    struct found f = {name, size, 0};
    char spec[sizeof(q->dir) + 300];

    snprintf(name, size, "%s", want);
    if ((size_t)snprintf(spec, sizeof(spec), "%s\\%s", q->dir, want) < sizeof(spec) &&
        MultiByteToWideChar(CP_UTF8, 0, spec, -1, path, WPATH_MAX) > 0 && is_file(path))
        return 0;
    _snwprintf(pattern, sizeof(pattern) / sizeof(pattern[0]), L"*%hs", suffix);
    return each_file(q->dir, pattern, note_name, &f) == 1 && f.fits ? 0 : -1;
}

static void remove_file(const wchar_t *name, void *ctx)
{
    static wchar_t path[WPATH_MAX];

    _snwprintf(path, WPATH_MAX, L"%ls\\%ls", (const wchar_t *)ctx, name);
    DeleteFileW(path);
}

void mp_qemu_end(struct mp_qemu *q)
{
    static wchar_t wdir[WPATH_MAX];

    if (q->child && !q->exited) {
        if (q->job)
            TerminateJobObject((HANDLE)q->job, 1);
        else
            TerminateProcess((HANDLE)q->child, 1);
        WaitForSingleObject((HANDLE)q->child, 10000);
        reaped(q);
    }
    if (q->child) {
        CloseHandle((HANDLE)q->child);
        q->child = 0;
    }
    if (q->job) {
        CloseHandle((HANDLE)q->job);
        q->job = 0;
    }
    if (q->dir[0] && MultiByteToWideChar(CP_UTF8, 0, q->dir, -1, wdir, WPATH_MAX) > 0) {
        each_file(q->dir, L"*", remove_file, wdir);
        RemoveDirectoryW(wdir);
    }
    q->dir[0] = '\0';
}
