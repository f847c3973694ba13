/*
 * The table of architectures (arch.h): each machine found by its
 * e_machine, and what every layer above asks of it: names, code
 * addresses, the call-site rule, the hook, the sample contexts, the
 * interrupts a blocker may be, and the lists the messages print.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <mcuprof/image.h>

#include "arch.h"
#include "callsite.h"
#include "check_model.h"

static void lookup_by_machine(void **state)
{
    (void)state;
    assert_non_null(mp_arch_of(MCUPROF_MACHINE_ARM));
    assert_non_null(mp_arch_of(MCUPROF_MACHINE_RISCV));
    assert_null(mp_arch_of(62)); /* x86-64 */
    assert_string_equal(mp_machine_name(MCUPROF_MACHINE_ARM), "ARM");
    assert_string_equal(mp_machine_name(MCUPROF_MACHINE_RISCV), "RISC-V");
    assert_null(mp_machine_name(0));
    assert_ptr_equal(mp_arch_at(0), mp_arch_of(MCUPROF_MACHINE_ARM));
    assert_ptr_equal(mp_arch_at(1), mp_arch_of(MCUPROF_MACHINE_RISCV));
    assert_null(mp_arch_at(2));
}

/* Every entry is complete: a missing field would crash a command. */
static void every_entry_complete(void **state)
{
    const struct mp_arch *a;

    (void)state;
    for (size_t i = 0; (a = mp_arch_at(i)) != NULL; i++) {
        assert_ptr_equal(mp_arch_of(a->machine), a);
        assert_non_null(a->name);
        assert_non_null(a->hook);
        assert_non_null(a->check_scan);
        assert_non_null(a->check_sampler);
        assert_non_null(a->context_name);
        assert_non_null(a->interrupt_what);
        assert_non_null(a->interrupt_range);
        assert_non_null(a->interrupt_number);
        assert_non_null(a->held_off_by);
        assert_non_null(a->blocker_advice);
        assert_ptr_equal(mp_arch_of_interrupt(a->interrupt_kind | a->interrupt_min), a);
        assert_true(mp_arch_is_hook(a->hook));
    }
    assert_false(mp_arch_is_hook("mcount"));
}

/* The Thumb bit is cleared on ARM only; RISC-V addresses are odd only
 * in no valid code, and are kept as recorded. */
static void code_addresses(void **state)
{
    (void)state;
    assert_int_equal(mp_code_addr(MCUPROF_MACHINE_ARM, 0x1001), 0x1000);
    assert_int_equal(mp_code_addr(MCUPROF_MACHINE_RISCV, 0x1001), 0x1001);
    assert_int_equal(mp_code_addr(0, 0x1001), 0x1001);
    assert_int_equal(mp_selfpc(MCUPROF_MACHINE_ARM, 0x2001), 0x2000);
}

static void call_sites(void **state)
{
    (void)state;
    assert_int_equal(mp_callsite(MCUPROF_MACHINE_ARM, 0x1005), 0x1002);
    assert_int_equal(mp_callsite(MCUPROF_MACHINE_RISCV, 0x1006), 0x1004);
    assert_int_equal(mp_callsite(0, 0x1005), 0x1005); /* unknown: as recorded */
    assert_int_equal(mp_callsite(MCUPROF_MACHINE_ARM, 0), 0);
    assert_int_equal(mp_callsite(MCUPROF_MACHINE_RISCV, 1), 0);
    /* EXC_RETURN: an interrupt handler's caller is no code */
    assert_true(mp_frompc_outside_code(MCUPROF_MACHINE_ARM, 0xFFFFFFF9u));
    assert_int_equal(mp_callsite(MCUPROF_MACHINE_ARM, 0xFFFFFFF9u), 0);
    assert_false(mp_frompc_outside_code(MCUPROF_MACHINE_RISCV, 0xFFFFFFF8u));
    assert_true(mp_callsite_known(MCUPROF_MACHINE_RISCV));
    assert_false(mp_callsite_known(3));
}

static void context_names(void **state)
{
    const struct mp_arch *arm = mp_arch_of(MCUPROF_MACHINE_ARM), *rv = mp_arch_of(MCUPROF_MACHINE_RISCV);
    char buf[64];

    (void)state;
    assert_string_equal(arm->context_name(MCUPROF_CTX_ARM_EXCEPTION | 15, buf, sizeof(buf)), "SysTick");
    assert_string_equal(arm->context_name(MCUPROF_CTX_ARM_EXCEPTION | 21, buf, sizeof(buf)), "IRQ 5");
    assert_null(arm->context_name(MCUPROF_CTX_RV_INTERRUPT | 7, buf, sizeof(buf)));
    assert_string_equal(rv->context_name(MCUPROF_CTX_RV_INTERRUPT | 7, buf, sizeof(buf)),
                        "machine timer interrupt");
    assert_string_equal(rv->context_name(MCUPROF_CTX_RV_EXCEPTION | 2, buf, sizeof(buf)), "illegal instruction");
    assert_null(rv->context_name(MCUPROF_CTX_THREAD, buf, sizeof(buf)));
    assert_ptr_equal(mp_arch_of_interrupt(MCUPROF_CTX_RV_INTERRUPT | 11), rv);
    assert_null(mp_arch_of_interrupt(MCUPROF_CTX_RV_EXCEPTION | 2));
}

static void name_of(const struct mp_arch *a, char *buf, size_t size)
{
    snprintf(buf, size, "%s", a->name);
}

static void lists(void **state)
{
    char buf[64];

    (void)state;
    assert_string_equal(mp_arch_list(buf, sizeof(buf), " nor ", name_of), "ARM nor RISC-V");
    assert_string_equal(mp_arch_list(buf, 6, " or ", name_of), "ARM o"); /* cut, never overrun */
}

/* A blocker is an interrupt of the image's machine, numbered as its
 * runtime numbers them; of any architecture when the machine is unknown. */
static void blocker_sources(void **state)
{
    char buf[128];

    (void)state;
    assert_true(mp_arch_interrupt_ok(MCUPROF_MACHINE_ARM, MCUPROF_CTX_ARM_EXCEPTION | 511));
    assert_false(mp_arch_interrupt_ok(MCUPROF_MACHINE_ARM, MCUPROF_CTX_ARM_EXCEPTION | 0));
    assert_false(mp_arch_interrupt_ok(MCUPROF_MACHINE_ARM, MCUPROF_CTX_RV_INTERRUPT | 7));
    assert_true(mp_arch_interrupt_ok(MCUPROF_MACHINE_RISCV, MCUPROF_CTX_RV_INTERRUPT | 0));
    assert_false(mp_arch_interrupt_ok(MCUPROF_MACHINE_RISCV, MCUPROF_CTX_RV_INTERRUPT | 64));
    assert_true(mp_arch_interrupt_ok(3, MCUPROF_CTX_RV_INTERRUPT | 7));
    assert_true(mp_arch_interrupt_ok(3, MCUPROF_CTX_ARM_EXCEPTION | 21));
    assert_false(mp_arch_interrupt_ok(3, MCUPROF_CTX_RV_EXCEPTION | 2));
    assert_string_equal(mp_arch_interrupts(MCUPROF_MACHINE_RISCV, buf, sizeof(buf)),
                        "a RISC-V interrupt 0..63 (0x20000000 | mcause code)");
    assert_string_equal(mp_arch_interrupts(3, buf, sizeof(buf)), "an ARM exception or a RISC-V interrupt");
}

static void blocker_advice(void **state)
{
    struct mp_arch_blocker b = {.number = 21, .priority = 0, .sampler_priority = 0, .handler_time = "T"};
    char buf[512];

    (void)state;
    mp_arch_of(MCUPROF_MACHINE_ARM)->blocker_advice(&b, buf, sizeof(buf));
    assert_non_null(strstr(buf, "NVIC_SetPriority(5, 1)"));
    mp_arch_of(MCUPROF_MACHINE_RISCV)->blocker_advice(&b, buf, sizeof(buf));
    assert_non_null(strstr(buf, "mstatus.MIE"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lookup_by_machine),
        cmocka_unit_test(every_entry_complete),
        cmocka_unit_test(code_addresses),
        cmocka_unit_test(call_sites),
        cmocka_unit_test(context_names),
        cmocka_unit_test(lists),
        cmocka_unit_test(blocker_sources),
        cmocka_unit_test(blocker_advice),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
