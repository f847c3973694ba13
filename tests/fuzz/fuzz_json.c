/*
 * fuzz_json.c - fuzz target: a JSON document of `convert --format json`
 * (every table: functions, arcs, ranges, counts, paths, contexts, tasks,
 * timing, lines), whose model every output format then writes, and which
 * written, read and written again must not change.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct mp_model m;

    fuzz_begin();
    if (mp_model_from_json(&m, "fuzz", data, size) == 0) {
        fuzz_write_all(&m);
        mp_model_free(&m);
    }
    fuzz_end();
    return 0;
}
