/*
 * name_regex.h - POSIX extended regular expressions for choosing
 * functions by name (`report --function`): does the pattern match
 * anywhere in a name, as regexec() with REG_EXTENDED | REG_NOSUB says.
 *
 * The tool's own, on every host: Windows has no <regex.h>, and one
 * matcher gives one behaviour everywhere. It compiles the pattern to a
 * small NFA and runs it with Thompson's simulation, every state at once:
 * time linear in the name for any pattern (no backtracking, so no
 * pattern takes exponential time), and the NFA's size is bounded
 * (MP_NAME_REGEX_MAX_STATES once repetitions are expanded; a larger one
 * is an error).
 *
 * The language is POSIX ERE on bytes (the C locale, as the tool runs):
 * literals, `.`, bracket expressions (ranges, negation, [:class:] for
 * alpha digit alnum space upper lower punct xdigit blank cntrl print
 * graph, [.c.] and [=c=] of one character), `^` `$`, groups, `|`, `*`
 * `+` `?` `{m}` `{m,}` `{m,n}` (and glibc's `{,n}`), a backslash before
 * any character that is not a letter or a digit. Where POSIX leaves a
 * pattern undefined this follows glibc: a `)` with no `(` is a literal,
 * `()` and empty alternatives match the empty string, a repetition of a
 * repetition repeats it. Back references and GNU's escapes (\w, \b,
 * \< ...) are errors, not silently something else.
 */
#ifndef MCUPROF_NAME_REGEX_H
#define MCUPROF_NAME_REGEX_H

#include <stddef.h>

/* The NFA's states at most, every repetition expanded: a pattern such as
 * (a{100}){100} over it is refused. */
#define MP_NAME_REGEX_MAX_STATES 10000
/* Groups and stacked repetitions nested at most. */
#define MP_NAME_REGEX_MAX_DEPTH 100
/* The largest count of a {m,n}, as glibc's RE_DUP_MAX. */
#define MP_NAME_REGEX_DUP_MAX 32767

struct mp_name_regex;

/* Compile PATTERN: 0 and *RE (free with mp_name_regex_free), or -1 with
 * the reason in WHY (regerror-like text, without the pattern). */
int mp_name_regex_compile(struct mp_name_regex **re, const char *pattern, char *why, size_t why_size);

/* 1 when RE matches somewhere in the string S, else 0. */
int mp_name_regex_search(const struct mp_name_regex *re, const char *s);

void mp_name_regex_free(struct mp_name_regex *re);

#endif /* MCUPROF_NAME_REGEX_H */
