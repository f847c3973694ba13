/*
 * The tool's own POSIX extended regular expressions (name_regex.h)
 * against the C library's regcomp/regexec (REG_EXTENDED | REG_NOSUB, the
 * C locale): the same answer for every pattern of a table and every name
 * of a table (C and demangled C++ names, UTF-8), and for thousands of
 * patterns drawn at random from ERE's pieces; the same patterns refused;
 * hostile patterns (deep nesting, huge counts, (a*)* on long names)
 * refused or answered in linear time.
 */
#define _POSIX_C_SOURCE 200809L

#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "name_regex.h"

static const char *const names[] = {
    "main",
    "",
    "a",
    "ab",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
    "SysTick_Handler",
    "HardFault_Handler",
    "__libc_init_array",
    "_start",
    "mcuprof_write_semihosting",
    "motor_step.constprop.0",
    "filter_update.part.3.isra.0",
    "motor::Filter::step(unsigned long)",
    "motor::Filter::step(unsigned long) [clone .constprop.0]",
    "std::vector<int, std::allocator<int> >::push_back(int const&)",
    "void std::sort<__gnu_cxx::__normal_iterator<int*, std::vector<int> > >(int*, int*)",
    "operator new(unsigned int)",
    "operator delete(void*, unsigned int)",
    "(anonymous namespace)::Worker::run()",
    "ns::Tmpl<3>::get() const",
    "a::b::c::d(char const*, ...)",
    "vTaskSwitchContext",
    "xQueueReceive",
    "prvIdleTask",
    "crc32_update_1024",
    "fn$1",
    "x^y",
    "dot.name",
    "[weird]",
    "back\\slash",
    "tab\there",
    "new\nline",
    "Z\xc3\xa4hler::z\xc3\xa4hle()",
    "\xe6\xb8\xac\xe5\xae\x9a",
    "UPPER_CASE_42",
    "0x1F_hex",
    "{braces}",
    "pipe|name",
    "q?mark*star+plus",
};

static const char *const patterns[] = {
    "", "a", "main", "^main$", "^main", "main$", "^$", "$", "^", "Handler$", "^_", "^__",
    "Sys|Hard", "^(Sys|Hard)Tick", "(Sys|Hard)[A-Za-z]*_Handler$", "motor::", "::step\\(", "step\\(unsigned",
    "<int>", "<int, std", "std::vector<.*>", "\\[clone \\.constprop\\.[0-9]+\\]$", "\\.constprop\\.", "\\.part\\.[0-9]",
    "\\.isra", "operator (new|delete)", "\\(\\)$", "\\(.*\\)", "\\(\\.\\.\\.\\)", "const$", " const", "\\*", "\\*\\)",
    "[[:upper:]]", "^[[:upper:]]", "[[:upper:]]{2}", "^[[:upper:]_0-9]+$", "[[:lower:]]+_[[:lower:]]+", "[[:digit:]]",
    "[[:digit:]]{2,}", "[[:digit:]]{4}$", "[[:alpha:]]+::", "^[[:alnum:]_]+$", "[[:space:]]", "[[:punct:]]",
    "^[^[:punct:]]*$", "[[:xdigit:]]{3}", "[[:blank:]]", "[[:cntrl:]]", "^[[:print:]]*$", "^[[:graph:]]+$",
    "[^a-z]", "^[^_]", "[]]", "[^]]", "[]a]", "[a-]", "[-a]", "[--/]", "[%--]", "[\\]", "\\\\", "[.]", "[*+?]",
    "[$]", "[\\^]", "[[.a.]]", "[[=a=]]", "[[.-.]a]", "[a-c-]", "[]-a]",
    "a*", "a+", "a?", "a{2}", "a{2,}", "a{2,3}", "a{,2}", "a{0}", "a{0,0}b", "^a{0}$", "a{1}{2}", "a**", "a+?",
    "(a*)*", "(a*)+", "(a|b)*c", "(a|)+b", "()", "(){3}", "(|a)", "a||b", "|main", "main|", "(a*)*b$", "(a+)+$",
    "^(a|aa)*$", "^(a|aa)*b$", "x*y*z*", "^.*$", ".", "..", "^.$", "^..$", ".{3}", "^.{4}$", ".{20,}", "^.{0,4}$",
    "q\\?mark\\*star\\+plus", "\\{braces\\}", "[{}]", "pipe\\|name", "x\\^y", "fn\\$1", "\\$", "dot\\.name", "dot.name",
    "\\[weird\\]", "back\\\\slash", "a)", ")", "\\)$", "\\(anonymous", "^\\(", "Tmpl<[0-9]+>", "<[^>]*>", ">$",
    "(::[[:alpha:]]+){2}", "(::[[:alpha:]]+){3}", "^([a-z]+::)+", "^([a-z]+::){2}[a-z]+\\(", "std::(vector|sort)",
    "\xc3\xa4", "Z.hler", "Z..hler", "^\xe6\xb8\xac", "[\xc3][\xa4]", "[^\x01-\x7f]", "[\x80-\xff]+",
    "vTask|xQueue|prv", "^(v|x|prv)[A-Z]", "crc32_update_[0-9]+$", "crc(32)?_", "(crc|md5)_update", "tab.here",
    "new.line", "new$", "^line", "[[:space:]]line", "0x[[:xdigit:]]+", "_[0-9]{2}$", "a^b", "a$b", "(^a)", "(b$)",
    "(^|_)start", "(^|:)get", "init(_array)?$", "^(_+)(libc|start)",
};

static int sys_match(const regex_t *r, const char *s)
{
    return regexec(r, s, 0, NULL, 0) == 0;
}

/* PATTERN answers every name as regexec does. */
static void same_answers(const char *pattern)
{
    struct mp_name_regex *re;
    regex_t sys;
    char why[200];
    size_t i;
    int rc = regcomp(&sys, pattern, REG_EXTENDED | REG_NOSUB);

    if (rc != 0) {
        regerror(rc, &sys, why, sizeof(why));
        fail_msg("the C library refuses the table's pattern '%s': %s", pattern, why);
    }
    if (mp_name_regex_compile(&re, pattern, why, sizeof(why)) != 0)
        fail_msg("pattern '%s' refused: %s", pattern, why);
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        int want = sys_match(&sys, names[i]), got = mp_name_regex_search(re, names[i]);

        if (want != got)
            fail_msg("pattern '%s' on '%s': %d, regexec says %d", pattern, names[i], got, want);
    }
    mp_name_regex_free(re);
    regfree(&sys);
}

static void table(void **s)
{
    size_t i;

    (void)s;
    for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
        same_answers(patterns[i]);
}

/* refused with WHY's start, as regerror words it */
static void refused(const char *pattern, const char *why_start)
{
    struct mp_name_regex *re = (struct mp_name_regex *)1;
    char why[200] = "";

    if (mp_name_regex_compile(&re, pattern, why, sizeof(why)) == 0)
        fail_msg("pattern '%s' accepted", pattern);
    assert_null(re);
    if (strncmp(why, why_start, strlen(why_start)) != 0)
        fail_msg("pattern '%s': '%s', not '%s...'", pattern, why, why_start);
}

/* The patterns the C library refuses are refused, for the same reason. */
static void bad_patterns(void **s)
{
    static const struct {
        const char *pattern, *why;
    } bad[] = {
        {"*a", "Invalid preceding regular expression"},
        {"+a", "Invalid preceding regular expression"},
        {"?a", "Invalid preceding regular expression"},
        {"{1}", "Invalid preceding regular expression"},
        {"a|*b", "Invalid preceding regular expression"},
        {"(*a)", "Invalid preceding regular expression"},
        {"^*", "Invalid preceding regular expression"},
        {"$*", "Invalid preceding regular expression"},
        {"a{", "Unmatched \\{"},
        {"a{1", "Unmatched \\{"},
        {"a{1,", "Unmatched \\{"},
        {"a{2,1}", "Invalid content of \\{\\}"},
        {"a{1a}", "Invalid content of \\{\\}"},
        {"a{ 1}", "Invalid content of \\{\\}"},
        {"a{1,2,3}", "Invalid content of \\{\\}"},
        {"a{32768}", "Regular expression too big"},
        {"a{99999999999}", "Regular expression too big"},
        {"(", "Unmatched ( or \\("},
        {"(a|b", "Unmatched ( or \\("},
        {"((a)", "Unmatched ( or \\("},
        {"[a", "Unmatched [, [^, [:, [., or [="},
        {"[]", "Unmatched [, [^, [:, [., or [="},
        {"[^]", "Unmatched [, [^, [:, [., or [="},
        {"[[:alpha]", "Unmatched [, [^, [:, [., or [="},
        {"[[:alpha:]", "Unmatched [, [^, [:, [., or [="},
        {"[[.a]", "Unmatched [, [^, [:, [., or [="},
        {"[[:foo:]]", "Invalid character class name"},
        {"[z-a]", "Invalid range end"},
        {"[a-b-c]", "Invalid range end"},
        {"[[:alpha:]-z]", "Invalid range end"},
        {"[a-[:alpha:]]", "Invalid range end"},
        {"[[.hyphen.]]", "Invalid collation character"},
        {"\\", "Trailing backslash"},
        {"a\\", "Trailing backslash"},
    };
    size_t i;

    (void)s;
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        regex_t sys;

        /* the table is what the C library says */
        if (regcomp(&sys, bad[i].pattern, REG_EXTENDED | REG_NOSUB) == 0)
            fail_msg("the C library accepts '%s'", bad[i].pattern);
        refused(bad[i].pattern, bad[i].why);
    }
    /* what this matcher refuses where glibc has an extension: back
     * references and GNU's escapes */
    refused("(a)\\1", "Back references (\\1) are not supported");
    refused("\\w+", "Unsupported escape \\w");
    refused("\\bmain", "Unsupported escape \\b");
    refused("\\<main\\>", "Unsupported escape \\<");
    refused("\\d", "Unsupported escape \\d");
}

/* A small deterministic generator (the tests must not vary by run). */
static uint32_t seed = 12345;

static unsigned rnd(unsigned n)
{
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % n;
}

/* A pattern of random pieces of ERE, some of them wrong on purpose. */
static void random_pattern(char *buf, size_t size, unsigned depth)
{
    static const char *const atoms[] = {
        "a", "b", "m", "_", ":", "::", "<", ">", " ", ",", ".", "\\(", "\\)", "\\.", "\\*", "\\[", "[ab]", "[^a]",
        "[a-m]", "[[:alpha:]]", "[[:digit:]]", "[[:upper:]_]", "[]a]", "[^:]", "^", "$", "()", "\xc3\xa4", "[",
        ")",
    };
    static const char *const reps[] = {"", "", "", "*", "+", "?", "{2}", "{0,2}", "{1,}", "{,1}", "{3,2}", "*?", "{"};
    size_t len = 0;
    unsigned pieces = 1 + rnd(4), i;

    buf[0] = '\0';
    for (i = 0; i < pieces && len + 40 < size; i++) {
        if (depth < 3 && rnd(5) == 0) {
            char inner[256];

            random_pattern(inner, sizeof(inner), depth + 1);
            len += (size_t)snprintf(buf + len, size - len, "(%s%s%s)", inner, rnd(3) ? "" : "|",
                                    rnd(3) ? "" : "a");
        } else {
            const char *atom = atoms[rnd(sizeof(atoms) / sizeof(atoms[0]))];

            /* an anchor inside a group is compared by anchors_in_groups:
             * glibc errs there */
            if (depth > 0 && (atom[0] == '^' || atom[0] == '$'))
                atom = "b";
            len += (size_t)snprintf(buf + len, size - len, "%s", atom);
        }
        if (rnd(2))
            len += (size_t)snprintf(buf + len, size - len, "%s", reps[rnd(sizeof(reps) / sizeof(reps[0]))]);
        if (rnd(8) == 0)
            len += (size_t)snprintf(buf + len, size - len, "|");
    }
}

/* Thousands of random patterns: refused by both, or answering every name
 * (and every random name) alike. */
static void random_patterns(void **s)
{
    unsigned i, compared = 0, refused_both = 0;

    (void)s;
    for (i = 0; i < 4000; i++) {
        char pattern[512], why[200], name[64];
        struct mp_name_regex *re;
        regex_t sys;
        int sys_ok, ok;
        size_t k;
        unsigned j;

        random_pattern(pattern, sizeof(pattern), 0);
        sys_ok = regcomp(&sys, pattern, REG_EXTENDED | REG_NOSUB) == 0;
        ok = mp_name_regex_compile(&re, pattern, why, sizeof(why)) == 0;
        if (sys_ok != ok)
            fail_msg("pattern '%s': %s, the C library %s", pattern, ok ? "accepted" : why,
                     sys_ok ? "accepts it" : "refuses it");
        if (!ok) {
            refused_both++;
            continue;
        }
        for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
            /* glibc lets a ^ or $ inside a pattern match beside a
             * newline even without REG_NEWLINE (".^b" finds "a\nb"),
             * which POSIX does not say; no symbol holds a newline */
            if (!strchr(names[k], '\n') && sys_match(&sys, names[k]) != mp_name_regex_search(re, names[k]))
                fail_msg("pattern '%s' on '%s': %d, regexec says %d", pattern, names[k],
                         mp_name_regex_search(re, names[k]), sys_match(&sys, names[k]));
        for (j = 0; j < 8; j++) {
            static const char alphabet[] = "abm_:<> ,.()*[]\xc3\xa4";
            unsigned n = rnd(12), c;

            for (c = 0; c < n; c++)
                name[c] = alphabet[rnd(sizeof(alphabet) - 1)];
            name[n] = '\0';
            if (sys_match(&sys, name) != mp_name_regex_search(re, name))
                fail_msg("pattern '%s' on '%s': %d, regexec says %d", pattern, name, mp_name_regex_search(re, name),
                         sys_match(&sys, name));
        }
        compared++;
        mp_name_regex_free(re);
        regfree(&sys);
    }
    /* both kinds drawn often enough to mean something */
    assert_true(compared > 1000);
    assert_true(refused_both > 200);
}

/* An anchor inside a repeated group: POSIX's answer (Python's re and
 * RE2 agree), where glibc's regexec finds matches that are not there. */
static void anchors_in_groups(void **s)
{
    static const struct {
        const char *pattern, *name;
        int match;
    } cases[] = {
        {"(^a){2}", "aaab", 0},
        {"(^a){1}a", "aaab", 1},
        {"([[:digit:]]\\.*$|a){2}", "crc32_update_1024", 0},
        {"([[:digit:]]$|a){2}", "xa1", 1},
        {"[a-m]+(<{0,2}(x|)*|^.|){2}[[:upper:]_]", "filter_update.part.3.isra.0", 0},
        {"[a-m]+(<{0,2}(x|)*|^.|){2}[[:upper:]_]", "fe_x", 1},
        {"(a|^b)+c", "xbc", 0},
        {"(a|^b)+c", "bac", 1},
        {"(a$)*", "", 1},
        {"x(a$)+", "xab", 0},
        {"x(a$)+", "xa", 1},
    };
    struct mp_name_regex *re;
    char why[200];
    size_t i;

    (void)s;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (mp_name_regex_compile(&re, cases[i].pattern, why, sizeof(why)) != 0)
            fail_msg("pattern '%s' refused: %s", cases[i].pattern, why);
        if (mp_name_regex_search(re, cases[i].name) != cases[i].match)
            fail_msg("pattern '%s' on '%s': not %d", cases[i].pattern, cases[i].name, cases[i].match);
        mp_name_regex_free(re);
    }
}

static double now_s(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Hostile patterns: refused for their size, or answered in time linear
 * in the name however they nest. */
static void hostile(void **s)
{
    static char deep[4096], name[20001], big[64];
    struct mp_name_regex *re;
    char why[200];
    double t0;
    unsigned i;

    (void)s;
    /* nesting past the limit */
    for (i = 0; i < 1000; i++)
        deep[i] = '(';
    for (; i < 2000; i++)
        deep[i] = ')';
    refused(deep, "Nested too deeply");
    /* within it: accepted, matches the empty string */
    memset(deep, 0, sizeof(deep));
    for (i = 0; i < 50; i++)
        deep[i] = '(';
    deep[50] = 'a';
    for (i = 51; i < 101; i++)
        deep[i] = ')';
    assert_int_equal(mp_name_regex_compile(&re, deep, why, sizeof(why)), 0);
    assert_int_equal(mp_name_regex_search(re, "xay"), 1);
    assert_int_equal(mp_name_regex_search(re, "xy"), 0);
    mp_name_regex_free(re);
    /* repetitions stacked past the limit */
    memset(deep, 0, sizeof(deep));
    deep[0] = 'a';
    memset(deep + 1, '*', 500);
    refused(deep, "Nested too deeply");
    /* repetitions that multiply past the states' bound */
    refused("(a{100}){101}", "Regular expression too big");
    refused("((a{30}){30}){30}", "Regular expression too big");
    refused("a{32767}", "Regular expression too big");
    snprintf(big, sizeof(big), "(((a{11}){11}){11}){11}");
    refused(big, "Regular expression too big");
    /* the classic exponential cases for a backtracking matcher, on a
     * long name that does not match: well under a second */
    memset(name, 'a', sizeof(name) - 1);
    t0 = now_s();
    {
        static const char *const evil[] = {"(a*)*b", "(a+)+b", "(a|aa)*b", "(a|a)*b", "((a*)*)*$x", "(a?){30}a{30}b",
                                           "(.*){20}b", "(a*)*(a*)*(a*)*b"};

        for (i = 0; i < sizeof(evil) / sizeof(evil[0]); i++) {
            if (mp_name_regex_compile(&re, evil[i], why, sizeof(why)) != 0)
                fail_msg("pattern '%s' refused: %s", evil[i], why);
            assert_int_equal(mp_name_regex_search(re, name), 0);
            mp_name_regex_free(re);
        }
    }
    assert_true(now_s() - t0 < 5.0);
    /* and the ones that match do */
    assert_int_equal(mp_name_regex_compile(&re, "^(a|aa)*$", why, sizeof(why)), 0);
    assert_int_equal(mp_name_regex_search(re, name), 1);
    mp_name_regex_free(re);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table),
        cmocka_unit_test(bad_patterns),
        cmocka_unit_test(random_patterns),
        cmocka_unit_test(anchors_in_groups),
        cmocka_unit_test(hostile),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
