/*
 * stderr_line.h - what a test that runs the mcuprof binary expects of the
 * standard error it captured in a file.
 */
#ifndef TESTS_STDERR_LINE_H
#define TESTS_STDERR_LINE_H

/* Fails the test unless the file PATH holds exactly LINE and a newline
 * (LINE may be several, separated by newlines), or when LINE is "",
 * nothing at all. */
void expect_stderr_line(const char *path, const char *line);

#endif /* TESTS_STDERR_LINE_H */
