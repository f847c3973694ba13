#include "wrote_line.h"

#include <string.h>

#include "count_text.h"
#include "diag.h"
#include "path_name.h"
#include "trust.h"

static const char *shown_name(const char *path)
{
    return strcmp(path, "-") ? path : "standard output";
}

/* Whether PATH's own name says it holds FMT: it is FMT's default file,
 * and that name is no earlier format's default. */
static int name_says_format(const char *path, const struct mp_format *fmt)
{
    size_t i;

    if (strcmp(mp_path_base(path), fmt->default_out))
        return 0;
    for (i = 0; i < mp_formats_count(); i++) {
        const struct mp_format *f = mp_format_at(i);

        if (f == fmt)
            return 1;
        if (!strcmp(f->default_out, fmt->default_out))
            return 0;
    }
    return 1;
}

void mp_say_wrote(const char *path, const struct mp_format *fmt, const struct mp_model *m)
{
    char samples[MP_COUNT_TEXT_MAX], arcs[MP_COUNT_TEXT_MAX], lost[400], format[48] = "";

    if (!name_says_format(path, fmt))
        snprintf(format, sizeof(format), " (%s)", fmt->name);
    mp_trust_losses(m, lost, sizeof(lost));
    mp_say("wrote %s%s: %s sample%s, %s arc%s, %s", shown_name(path), format, mp_count_text(samples, m->c.binned),
           m->c.binned == 1 ? "" : "s", mp_count_text(arcs, m->narcs), m->narcs == 1 ? "" : "s", lost);
}

void mp_say_wrote_raw(const char *path, size_t len)
{
    char bytes[MP_COUNT_TEXT_MAX];

    mp_say("wrote %s (raw image, %s byte%s)", shown_name(path), mp_count_text(bytes, len), len == 1 ? "" : "s");
}
