/* calls_pg.c - the measured code, compiled with -pg. */
#define CALLS_PREFIX pg
#include "calls_body.h"
