/*
 * trust_options.c - the options `convert`, `info` and `report` end their
 * option switch with, and the two every command that prints function
 * names takes (commands.h).
 */
#include "commands.h"
#include "cxx_demangle.h"
#include "model.h"
#include "trust.h"

int mp_names_option(int c)
{
    if (c == MP_OPT_NO_DEMANGLE)
        mp_demangle_enable(0);
    else if (c == MP_OPT_GROUP_CLONES)
        mp_model_set_clone_view(1);
    else
        return 0;
    return 1;
}

int mp_trust_or_help(int c, const char *arg, struct mp_trust_opts *o, void (*help)(FILE *f))
{
    switch (c) {
    case 'W':
    case 'S':
    case 'M':
        return mp_trust_option(c, arg, o) < 0 ? MP_EXIT_USAGE : MP_OPTION_TAKEN;
    case MP_OPT_NO_DEMANGLE:
    case MP_OPT_GROUP_CLONES:
        mp_names_option(c);
        return MP_OPTION_TAKEN;
    case 'h':
        help(stdout);
        return MP_EXIT_OK;
    default:
        return MP_EXIT_USAGE;
    }
}
