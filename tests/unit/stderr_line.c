/* stderr_line.c - the check of stderr_line.h. */
#include "stderr_line.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

void expect_stderr_line(const char *path, const char *line)
{
    char err[4096];
    FILE *f = fopen(path, "r");
    size_t n;

    assert_non_null(f);
    n = fread(err, 1, sizeof(err) - 1, f);
    fclose(f);
    err[n] = '\0';
    if (!line[0] && n == 0)
        return; /* nothing expected, nothing said */
    if (strlen(line) + 1 != n || strncmp(err, line, n - 1) != 0 || err[n - 1] != '\n')
        fail_msg("stderr is '%s', expected '%s'", err, line);
}
