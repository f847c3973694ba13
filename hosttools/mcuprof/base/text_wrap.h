/*
 * text_wrap.h - help text made of parts (a format's, a transport's line)
 * printed as paragraphs that keep to the width of the rest of the help.
 */
#ifndef MCUPROF_TEXT_WRAP_H
#define MCUPROF_TEXT_WRAP_H

#include <stdio.h>

/* Print TEXT, words separated by single spaces, starting at column COL of
 * the current line: a word that would end past column WIDTH starts a new
 * line, indented by INDENT spaces. Ends with a newline. */
void mp_wrap(FILE *f, const char *text, unsigned col, unsigned indent, unsigned width);

#endif /* MCUPROF_TEXT_WRAP_H */
