/*
 * The OS layer on Windows (run under Wine): outputs replaced through a
 * closed temporary file, by UTF-8 names, and refused in one line when
 * another program holds them open; file names with drives and
 * backslashes; a refused connection said as on Linux; C++ names as
 * libiberty reads them; sleeps that last what they say, to the
 * millisecond.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "cxx_demangle.h"
#include "diag.h"
#include "file_io.h"
#include "file_open.h"
#include "net.h"
#include "path_name.h"

static int failures;

#define CHECK(cond, ...)                                                                                 \
    do {                                                                                                 \
        if (!(cond)) {                                                                                   \
            failures++;                                                                                  \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                  \
            printf(__VA_ARGS__);                                                                         \
            printf("\n");                                                                                \
        }                                                                                                \
    } while (0)

static int write_out(const char *path, const char *text)
{
    struct mp_atomic a;

    if (mp_atomic_open(&a, path) < 0)
        return -1;
    fputs(text, a.f);
    return mp_atomic_commit(&a);
}

/* The whole of PATH (at most 255 bytes) in BUF; its length, -1: none. */
static int read_back(const char *path, char *buf)
{
    FILE *f = mp_fopen(path, "r");
    size_t n;

    if (!f)
        return -1;
    n = fread(buf, 1, 255, f);
    buf[n] = '\0';
    fclose(f);
    return (int)n;
}

/* How many files match the wide pattern W. */
static int count_files(const wchar_t *w)
{
    WIN32_FIND_DATAW d;
    HANDLE h = FindFirstFileW(w, &d);
    int n = 0;

    if (h == INVALID_HANDLE_VALUE)
        return 0;
    do
        n++;
    while (FindNextFileW(h, &d));
    FindClose(h);
    return n;
}

static void outputs(void)
{
    /* "wïn-ünï.out", in UTF-8 and as Windows names it */
    const char *name = "w\xc3\xafn-\xc3\xbcn\xc3\xaf.out";
    const wchar_t *wname = L"w\u00efn-\u00fcn\u00ef.out", *wtmp = L"w\u00efn-\u00fcn\u00ef.out.tmp*";
    char buf[256];
    HANDLE h;

    DeleteFileW(wname);
    CHECK(write_out(name, "one\n") == 0, "new output: %s", mp_last_error());
    CHECK(read_back(name, buf) == 4 && strcmp(buf, "one\n") == 0, "new output holds '%s'", buf);
    CHECK(GetFileAttributesW(wname) != INVALID_FILE_ATTRIBUTES, "not found by its UTF-16 name");
    CHECK(write_out(name, "two\nlines\n") == 0, "replaced: %s", mp_last_error());
    /* binary: LF stays LF */
    CHECK(read_back(name, buf) == 10 && strcmp(buf, "two\nlines\n") == 0, "replaced output holds '%s'", buf);

    h = CreateFileW(wname, GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
    CHECK(h != INVALID_HANDLE_VALUE, "cannot hold the output open");
    mp_diag_quiet(1);
    CHECK(write_out(name, "three\n") < 0, "an output held open was replaced");
    mp_diag_quiet(0);
    CHECK(strstr(mp_last_error(), "cannot replace: the file is open in another program") != NULL, "said: %s",
          mp_last_error());
    CloseHandle(h);
    CHECK(count_files(wtmp) == 0, "a temporary file was left behind");
    CHECK(read_back(name, buf) == 10, "the output held open changed: '%s'", buf);

    SetFileAttributesW(wname, FILE_ATTRIBUTE_READONLY);
    mp_diag_quiet(1);
    CHECK(write_out(name, "four\n") < 0, "a read-only output was replaced");
    mp_diag_quiet(0);
    CHECK(strstr(mp_last_error(), "read-only") != NULL, "said: %s", mp_last_error());
    SetFileAttributesW(wname, FILE_ATTRIBUTE_NORMAL);
    DeleteFileW(wname);

    /* names of no file yet: the same file whatever the case and slashes */
    CHECK(mp_same_file("new-dir\\X.out", "NEW-DIR/x.out"), "one new file by two spellings");
    CHECK(!mp_same_file("new-dir\\x.out", "new-dir\\y.out"), "two new files taken for one");

    mp_diag_quiet(1);
    CHECK(mp_output_check("no-such-folder\\x.out") < 0, "an output in a missing folder");
    mp_diag_quiet(0);
    CHECK(strstr(mp_last_error(), "directory no-such-folder: No such file or directory") != NULL, "said: %s",
          mp_last_error());
}

static void paths(void)
{
    char *d = mp_path_dir("C:\\work\\fw.elf");

    CHECK(strcmp(mp_path_base("C:\\work\\fw.elf"), "fw.elf") == 0, "base of C:\\work\\fw.elf");
    CHECK(strcmp(mp_path_base("C:fw.elf"), "fw.elf") == 0, "base of C:fw.elf");
    CHECK(d && strcmp(d, "C:\\work") == 0, "folder of C:\\work\\fw.elf: %s", d ? d : "(null)");
    free(d);
}

/* A port nothing listens on: one just bound, then closed. */
static unsigned closed_port(void)
{
    struct sockaddr_in a;
    int len = sizeof(a);
    SOCKET s = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);

    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(s, (struct sockaddr *)&a, sizeof(a));
    getsockname(s, (struct sockaddr *)&a, &len);
    closesocket(s);
    return ntohs(a.sin_port);
}

static void sockets(void)
{
    struct mp_endpoint ep;
    struct mp_net n;
    WSADATA wsa;
    uint64_t t0;

    WSAStartup(MAKEWORD(2, 2), &wsa);
    memset(&ep, 0, sizeof(ep));
    snprintf(ep.where, sizeof(ep.where), "127.0.0.1");
    ep.number = closed_port();
    snprintf(ep.name, sizeof(ep.name), "127.0.0.1:%u", ep.number);
    mp_diag_quiet(1);
    CHECK(mp_net_connect(&n, &ep, "GDB server", 3000) < 0, "connected to a closed port");
    mp_diag_quiet(0);
    CHECK(strstr(mp_last_error(), "cannot connect: Connection refused (is the GDB server running?)") != NULL,
          "said: %s", mp_last_error());
    t0 = mp_now_ms();
    CHECK(mp_sleep_ms(200) == 0, "a sleep was interrupted");
    CHECK(mp_now_ms() - t0 >= 200 && mp_now_ms() - t0 < 2000, "200 ms slept as %llu",
          (unsigned long long)(mp_now_ms() - t0));
    /* to the millisecond, not Windows' default 15.6 ms tick: 20 naps of
     * 1 ms well under 20 ticks */
    t0 = mp_now_us();
    for (int i = 0; i < 20; i++)
        mp_sleep_us(1000);
    CHECK(mp_now_us() - t0 >= 20000 && mp_now_us() - t0 < 150000, "20 x 1 ms slept as %llu us",
          (unsigned long long)(mp_now_us() - t0));
}

static void names(void)
{
    static const char *const pairs[][2] = {
        {"_ZN5motor6Filter4stepEm", "motor::Filter::step(unsigned long)"},
        {"_Z3fooi.constprop.0", "foo(int) [clone .constprop.0]"},
        {"_ZZN5motor9run_roundEPPNS_5StageEiENKUliE_clEi",
         "motor::run_round(motor::Stage**, int)::{lambda(int)#1}::operator()(int) const"},
        {"_GLOBAL__I_main", "global constructors keyed to main"},
    };
    size_t i;

    for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        char *got = mp_demangle(pairs[i][0]);

        CHECK(got && strcmp(got, pairs[i][1]) == 0, "%s read '%s'", pairs[i][0], got ? got : "(null)");
        free(got);
    }
    /* C names __cxa_demangle would read as types, and GCC's
     * _GLOBAL__sub_I_ names, which libiberty leaves alone too */
    CHECK(mp_demangle("v") == NULL && mp_demangle("i") == NULL && mp_demangle("main") == NULL &&
              mp_demangle("_GLOBAL__sub_I_main") == NULL,
          "a name libiberty leaves alone was demangled");
}

int main(void)
{
    outputs();
    paths();
    sockets();
    names();
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures != 0;
}
