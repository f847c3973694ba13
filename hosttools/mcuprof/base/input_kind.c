/* input_kind.c - an input file's kind from its first bytes (input_kind.h). */
#include "input_kind.h"

#include <string.h>

#include <mcuprof/image.h>

unsigned mp_image_magic_order(const uint8_t *d, size_t len)
{
    if (len < 4)
        return 0;
    if (memcmp(d, MCUPROF_IMAGE_MAGIC_LE, 4) == 0)
        return MCUPROF_ORDER_LITTLE;
    if (memcmp(d, MCUPROF_IMAGE_MAGIC_BE, 4) == 0)
        return MCUPROF_ORDER_BIG;
    return 0;
}

enum mp_input_kind mp_input_kind(const uint8_t *d, size_t len)
{
    size_t i;

    if (len == 0 || mp_image_magic_order(d, len))
        return MP_INPUT_IMAGE;
    for (i = 0; i < len && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r'); i++)
        ;
    return i < len && d[i] == '{' ? MP_INPUT_JSON : MP_INPUT_GMON;
}

const char *mp_input_kind_name(enum mp_input_kind k)
{
    return k == MP_INPUT_IMAGE ? "image" : k == MP_INPUT_GMON ? "gmon.out" : "JSON";
}
