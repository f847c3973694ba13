#include "count_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *mp_count_text(char buf[MP_COUNT_TEXT_MAX], uint64_t n)
{
    char digits[24];
    size_t len, i, o = 0;

    snprintf(digits, sizeof(digits), "%" PRIu64, n);
    len = strlen(digits);
    for (i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}
