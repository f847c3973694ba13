/* model_json.c - the flag names of model_json.h. */
#include "model_json.h"

const char *const mp_json_path_flags[MP_JSON_PATH_FLAGS] = {"truncated", "cut", "gap"};
const char *const mp_json_blocker_flags[MP_JSON_BLOCKER_FLAGS] = {"blocking", "preemptible"};
const char *const mp_json_state_flags[MP_JSON_STATE_FLAGS] = {"arcs", "sampling", "frozen"};
