/*
 * target_cmdline.c - the option loop pull, sample and ctl share
 * (target_cmdline.h).
 */
#include "target_cmdline.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "diag.h"

void mp_target_cmdline_init(struct mp_target_cmdline *cl, struct mp_target_args *target, struct mp_outputs *outs,
                            const struct option *own, size_t nown, const char *own_short, int maxpos)
{
    static const struct option out_opts[] = {
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'f'},
    };
    static const struct option name_opts[] = {
        MP_NO_DEMANGLE_LONGOPT,
        MP_GROUP_CLONES_LONGOPT,
        MP_QUIET_LONGOPT,
    };
    static const struct option help_opt = {"help", no_argument, NULL, 'h'};
    struct option fixed[sizeof(cl->longopts) / sizeof(cl->longopts[0])];
    size_t n = 0;
    char shortopts[sizeof(cl->shortopts)];

    memset(cl, 0, sizeof(*cl));
    cl->target = target;
    cl->outs = outs;
    cl->maxpos = maxpos;
    if (nown > MP_CMDLINE_OWN_MAX)
        nown = MP_CMDLINE_OWN_MAX;
    if (outs) {
        memcpy(fixed, out_opts, sizeof(out_opts));
        n += 2;
    }
    memcpy(fixed + n, own, nown * sizeof(*own));
    n += nown;
    if (outs) {
        memcpy(fixed + n, name_opts, sizeof(name_opts));
        n += sizeof(name_opts) / sizeof(name_opts[0]);
    }
    fixed[n++] = help_opt;
    mp_target_longopts(cl->longopts, fixed, n);
    snprintf(shortopts, sizeof(shortopts), "e:a:%s%st:%sh", outs ? "o:f:" : "", own_short, outs ? "q" : "");
    mp_target_shortopts(cl->shortopts, sizeof(cl->shortopts), shortopts);
}

int mp_target_cmdline_next(struct mp_target_cmdline *cl, int argc, char **argv)
{
    int c, r;

    /* one more than the command takes, to name the first one too many */
    while ((c = mp_getopt(argc, argv, cl->shortopts, cl->longopts, cl->pos, cl->maxpos + 1, &cl->npos)) != -1) {
        if ((r = mp_target_option(cl->target, c, optarg)) != 0) {
            if (r < 0)
                return '?';
            continue;
        }
        if (!cl->outs)
            return c;
        switch (c) {
        case 'o':
            cl->outs->out = optarg;
            break;
        case 'f':
            if (mp_outputs_add(cl->outs, optarg) < 0)
                return '?';
            break;
        case 'q':
            mp_diag_set_quiet(1);
            break;
        default:
            if (!mp_names_option(c))
                return c;
        }
    }
    return -1;
}

int mp_target_cmdline_end(const struct mp_target_cmdline *cl)
{
    const char *cmd = cl->target->cmd;

    if (cl->npos > cl->maxpos)
        return mp_error(NULL, "%s: unexpected argument '%s' (see 'mcuprof help %s')", cmd, cl->pos[cl->maxpos], cmd);
    return 0;
}
