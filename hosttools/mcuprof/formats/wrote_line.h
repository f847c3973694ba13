/*
 * wrote_line.h - the line that says an output was written, printed by the
 * output path (output.c) once the file is in place, so every command that
 * writes files says it the same way and none can forget:
 *
 *   mcuprof: wrote gmon.out: 10,249 samples, 29 arcs, nothing lost
 *   mcuprof: wrote prof.pb.gz (pprof): 512 samples, 3 arcs, 3 calls lost (arc table full)
 *   mcuprof: wrote run.img (raw image, 5,984 bytes)
 *
 * The samples are those in the histogram (the bins), the arcs the call
 * graph's; the losses are the model's lost_* counters in the words of
 * trust.h. The format is named when the file's name does not tell it:
 * unless the name is the format's default file and no format before it
 * writes one of that name (gmon.out is gnu's; in the BSD layout it says
 * so). Silenced by -q (diag.h).
 */
#ifndef MCUPROF_WROTE_LINE_H
#define MCUPROF_WROTE_LINE_H

#include <stddef.h>

#include "formats.h"

/* PATH (as the user named it, "-" the standard output) now holds M in
 * format FMT. */
void mp_say_wrote(const char *path, const struct mp_format *fmt, const struct mp_model *m);

/* PATH now holds LEN bytes of a raw image. */
void mp_say_wrote_raw(const char *path, size_t len);

#endif /* MCUPROF_WROTE_LINE_H */
