/* model_fixture.c - an empty ARM model for the tests (model_fixture.h). */
#include "model_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "diag.h"

void model_fixture_arm(struct mp_model *m)
{
    mp_diag_reset();
    assert_int_equal(mp_model_init(m, "t.img", MP_MODEL_IMAGE), 0);
    m->machine = 40;
    m->ptr_size = 4;
    m->elf_path = "t.elf";
}
