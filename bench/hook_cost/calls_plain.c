/* calls_plain.c - the same code compiled without -pg: the baseline. */
#define CALLS_PREFIX plain
#include "calls_body.h"
