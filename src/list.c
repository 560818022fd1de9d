/* list.c -- `arcrun list [PATTERN]`: every primitive of a dialect with its
 * signature and a one-line description; PATTERN keeps the names it matches
 * (a shell glob, or a substring when it has no wildcard). */
#include "list.h"
#include "ir.h"
#include "prim.h"

#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

static bool matches(const char *pattern, const char *name)
{
    if (!pattern)
        return true;
    if (strpbrk(pattern, "*?["))
        return fnmatch(pattern, name, 0) == 0;
    return strstr(name, pattern) != NULL;
}

int cmd_list(int argc, char **argv)
{
    static const struct option opts[] = {
        {"dialect", required_argument, NULL, 'd'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *dialect_name = "arc-dsl";
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
        if (c == 'd') {
            dialect_name = optarg;
        } else {
            fputs("Usage: arcrun list [--dialect=arc-dsl|re-arc|tokpidjin] [PATTERN]\n"
                  "Every primitive of the dialect: its signature and what it computes.\n"
                  "PATTERN keeps the names it matches: a glob (rot*), or a substring.\n",
                  c == 'h' ? stdout : stderr);
            return c == 'h' ? 0 : 2;
        }
    }
    int dialect = ir_dialect_parse(dialect_name);
    bool rearc = dialect == IR_DIALECT_REARC;
    if (rearc)
        dialect = DIALECT_ARCDSL;
    if (dialect < 0) {
        fprintf(stderr, "arcrun: unknown dialect '%s' (arc-dsl, re-arc or tokpidjin)\n", dialect_name);
        return 2;
    }
    if (argc - optind > 1) {
        fputs("arcrun: list takes one PATTERN\n", stderr);
        return 2;
    }
    const char *pattern = optind < argc ? argv[optind] : NULL;
    int shown = 0;
    for (int p = 0; p < PRIM_COUNT; p++) {
        const PrimInfo *pi = &prim_table[p];
        if (pi->dialect != dialect || pi->rearc || !matches(pattern, pi->name))
            continue;
        int q = rearc ? prim_lookup_rearc(pi->name) : p;   /* re-arc's own version where it has one */
        printf("%s%s\n    %s\n", pi->name, prim_signature(q), prim_description(q));
        shown++;
    }
    if (!shown) {
        fprintf(stderr, "arcrun: list: no %s primitive matches '%s'\n", dialect_name, pattern ? pattern : "");
        return 1;
    }
    return 0;
}
