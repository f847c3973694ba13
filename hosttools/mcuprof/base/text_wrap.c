/*
 * text_wrap.c - paragraphs to a width (text_wrap.h).
 */
#include "text_wrap.h"

#include <string.h>

void mp_wrap(FILE *f, const char *text, unsigned col, unsigned indent, unsigned width)
{
    int first = 1;

    text += strspn(text, " ");
    while (*text) {
        size_t len = strcspn(text, " ");

        /* a word longer than the width gets a line of its own, not a cut */
        if (!first && col + 1 + len > width) {
            fprintf(f, "\n%*s", (int)indent, "");
            col = indent;
        } else if (!first) {
            fputc(' ', f);
            col++;
        }
        fwrite(text, 1, len, f);
        col += (unsigned)len;
        first = 0;
        text += len;
        text += strspn(text, " ");
    }
    fputc('\n', f);
}
