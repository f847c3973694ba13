/* PLACEHOLDER: being written. */
#include "diag.h"
#include "model.h"
