/* imports.c -- see imports.h. */
#include "imports.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MOD_OTHER, MOD_DSL, MOD_CONSTANTS, MOD_PILE, MOD_SHIM, MOD_NO_DSL };

/* pile is the goldens' shim for the 2025-10 batt files (constants + dsl);
 * batt_gpu the shim of batch_process_samples_gpu (shared/golden/README.md).
 * The MOD_NO_DSL modules export no DSL name under `*`; any other module
 * might re-export anything. */
static int module_kind(const char *m)
{
    static const char *const no_dsl[] = {
        "arc_types", "typing", "safe_dsl", "gpu_env", "math", "os", "sys", "itertools",
        "collections", "functools", "logging", "random", "re", "json", "numpy", "__future__",
    };
    if (strcmp(m, "dsl") == 0) return MOD_DSL;
    if (strcmp(m, "constants") == 0) return MOD_CONSTANTS;
    if (strcmp(m, "pile") == 0) return MOD_PILE;
    if (strcmp(m, "batt_gpu") == 0) return MOD_SHIM;
    for (size_t i = 0; i < sizeof no_dsl / sizeof *no_dsl; i++)
        if (strcmp(m, no_dsl[i]) == 0) return MOD_NO_DSL;
    return MOD_OTHER;
}

/* Whether m is an item of the ", "-separated list. */
static bool listed(const char *list, const char *m)
{
    size_t n = strlen(m);
    for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] ? 2 : 0))
        if (strncmp(p, m, n) == 0 && (p[n] == ',' || p[n] == 0)) return true;
    return false;
}

void imports_scan(ImportScope *sc, const Stmt *body, bool dsl_consts)
{
    memset(sc, 0, sizeof *sc);
    bool unknown_star = false;
    int cap = 0;
    for (const Stmt *s = body; s; s = s->next) {
        if (s->kind != S_IMPORT || !s->u.import.module) continue;
        const char *m = s->u.import.module;
        int kind = module_kind(m);
        if (!listed(sc->modules, m)) {
            size_t used = strlen(sc->modules);
            if (used + strlen(m) + 3 < sizeof sc->modules)
                snprintf(sc->modules + used, sizeof sc->modules - used, "%s%s", used ? ", " : "", m);
        }
        sc->scoped |= kind == MOD_DSL || kind == MOD_CONSTANTS || kind == MOD_PILE;
        if (!s->u.import.names) {
            sc->prims |= kind == MOD_DSL || kind == MOD_PILE;
            sc->consts |= kind == MOD_CONSTANTS || kind == MOD_PILE || (dsl_consts && kind == MOD_DSL);
            sc->shim |= kind == MOD_SHIM;
            unknown_star |= kind == MOD_OTHER;
            continue;
        }
        for (const ImportName *n = s->u.import.names; n; n = n->next) {
            if (sc->nnames == cap) {
                cap = cap ? 2 * cap : 8;
                const ImportName **p = realloc(sc->names, (size_t)cap * sizeof *p);
                if (!p) { fputs("arcrun: out of memory\n", stderr); abort(); }
                sc->names = p;
            }
            sc->names[sc->nnames++] = n;
        }
    }
    if (unknown_star) sc->scoped = false;
}

void imports_free(ImportScope *sc)
{
    free(sc->names);
    sc->names = NULL;
    sc->nnames = 0;
}

/* The last import that binds name (a later import rebinds it). */
static const ImportName *bound_by(const ImportScope *sc, const char *name)
{
    for (int i = sc->nnames - 1; i >= 0; i--) {
        const ImportName *n = sc->names[i];
        if (strcmp(n->as ? n->as : n->name, name) == 0) return n;
    }
    return NULL;
}

const char *imports_target(const ImportScope *sc, const char *name)
{
    const ImportName *n = bound_by(sc, name);
    return n ? n->name : name;
}

bool imports_bind(const ImportScope *sc, const char *name, bool is_const, bool shim)
{
    if (!sc->scoped || bound_by(sc, name)) return true;
    if (is_const) return sc->consts;
    return shim ? sc->shim : sc->prims;
}
