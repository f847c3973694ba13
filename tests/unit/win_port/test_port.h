/*
 * test_port.h - the two POSIX calls the unit tests use that mingw-w64's C
 * library lacks, for the Windows build of the tests only (forced into each
 * test source by tests/unit/CMakeLists.txt, so the tests themselves stay
 * as they are on Linux):
 *   open_memstream  a stream into memory, read by the caller after
 *                   fclose: here a temporary file whose bytes fclose
 *                   copies into *BUF (and *LEN), as glibc's does;
 *   mkdtemp         a new private directory from a XXXXXX template.
 */
#ifndef MCUPROF_TEST_PORT_H
#define MCUPROF_TEST_PORT_H
#ifdef _WIN32

#include <stddef.h>
#include <stdio.h>

FILE *test_port_open_memstream(char **buf, size_t *len);
int test_port_fclose(FILE *f);
char *test_port_mkdtemp(char *tmpl);

#define open_memstream test_port_open_memstream
#define fclose test_port_fclose
#define mkdtemp test_port_mkdtemp

#endif /* _WIN32 */
#endif /* MCUPROF_TEST_PORT_H */
