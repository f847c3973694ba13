/*
 * text_safe.h - input-derived text (function, task and file names, paths,
 * fields quoted in a message) as it may be shown to a person: nothing a
 * terminal acts on, nothing that changes how a line reads.
 *
 * The rule, the same in every text the tool writes for people (report,
 * info, diff, check, every error, warning and note) and in the names of
 * the text formats a user may print (DOT, folded, callgrind, pprof's
 * strings):
 *   - printable ASCII (0x20..0x7e) is kept, but for the backslash, which
 *     is written "\\", so an escape is never ambiguous with the text;
 *   - valid UTF-8 is kept (a C++ or non-ASCII name reads as written),
 *     but for the code points that control a terminal or the line:
 *     C1 controls (U+0080..U+009F), the bidirectional controls (U+061C,
 *     U+200E, U+200F, U+202A..U+202E, U+2066..U+2069) and the line and
 *     paragraph separators (U+2028, U+2029);
 *   - every other byte (C0 controls with tab and newline, DEL, the bytes
 *     of those code points, bytes that are not UTF-8) is written "\xNN",
 *     two lower-case hex digits.
 * So the escaped text is one line, and the original bytes can be read
 * back from it. Messages (diag.h) keep their backslashes, their own text
 * quoting JSON's escapes (mp_esc_message). It is applied always, not only when the output is a
 * terminal: a report saved to a file is read with cat later.
 */
#ifndef MCUPROF_TEXT_SAFE_H
#define MCUPROF_TEXT_SAFE_H

#include <stddef.h>
#include <stdio.h>

/* The length of the valid UTF-8 sequence at S (at most AVAIL bytes), 0
 * when S does not start one (ASCII included: a caller handles those). */
size_t mp_utf8_len(const unsigned char *s, size_t avail);

/* The length of the character at S (at most AVAIL bytes) that is shown
 * as it is by the rule above; 0 when its first byte is escaped. The
 * backslash, shown as two, counts as escaped. */
size_t mp_text_kept_len(const unsigned char *s, size_t avail);

/* S by the rule, for a print call's argument: S itself when nothing needs
 * escaping, else one of MP_TEXT_SAFE_RING buffers owned here, each valid
 * until as many more calls have been made (so up to that many may stand in
 * one printf). NULL gives "(null)"; out of memory, a fixed placeholder. */
#define MP_TEXT_SAFE_RING 16
const char *mp_esc(const char *s);

/* S by the rule into BUF of SIZE bytes (NUL-terminated when SIZE > 0),
 * cut before an escape or a character that does not fit, never inside
 * one. Returns the length written. */
size_t mp_esc_buf(char *buf, size_t size, const char *s);

/* As mp_esc_buf, but a backslash is kept as it is: for a message, whose
 * own text quotes JSON's escapes (\u, \") and which a person reads
 * rather than decodes (diag.h). Controls and bytes that are not UTF-8
 * are escaped all the same. */
size_t mp_esc_message(char *buf, size_t size, const char *s);

/* S by the rule onto F. */
void mp_esc_put(FILE *f, const char *s);

#endif /* MCUPROF_TEXT_SAFE_H */
