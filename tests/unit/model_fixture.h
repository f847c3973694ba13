/*
 * model_fixture.h - where the tests that fill a profile model by hand
 * start.
 */
#ifndef TESTS_MODEL_FIXTURE_H
#define TESTS_MODEL_FIXTURE_H

#include "model.h"

/* *M empty, of a 32-bit ARM image "t.img" with its functions from
 * "t.elf", and the diagnostics' counts reset. */
void model_fixture_arm(struct mp_model *m);

#endif /* TESTS_MODEL_FIXTURE_H */
