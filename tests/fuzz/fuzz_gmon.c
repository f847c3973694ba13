/*
 * fuzz_gmon.c - fuzz target: a gmon.out (GNU with any record tag, BSD;
 * byte order and address width inferred), as `info` reads it and as
 * `convert`, `report` and `diff` make it a model, which is then written in
 * every output format; and `mcuprof info` run on it.
 */
#include "fuzz_common.h"
#include "gmon_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct mp_gmon_info g;
    struct mp_model m;

    fuzz_begin();
    mp_gmon_parse(&g, "fuzz", data, size);
    if (mp_model_from_gmon(&m, "fuzz", data, size) == 0) {
        fuzz_write_all(&m);
        mp_model_free(&m);
    }
    {
        const char *const info[] = {"mcuprof", "info", fuzz_file(0, data, size), NULL};

        fuzz_tool(info);
    }
    fuzz_end();
    return 0;
}
