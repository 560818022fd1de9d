/* imports.h -- which DSL names a file's imports bind.  CPython looks a
 * name up when the line runs: `from dsl import *` alone binds no constant,
 * so a batt written that way raises NameError at its first F0.  A file
 * with no DSL import at all (a .dsl file, an expression) sees every name. */
#ifndef ARC_IMPORTS_H
#define ARC_IMPORTS_H

#include <stdbool.h>
#include "ast.h"

typedef struct {
    bool scoped;             /* an import names where DSL names come from */
    bool prims, consts;      /* `from dsl/constants/pile import *` */
    bool shim;               /* `from batt_gpu import *` */
    const ImportName **names;   /* `from M import a, b as c`, in file order */
    int nnames;
    char modules[160];       /* the modules imported from, for messages */
} ImportScope;

/* dsl_consts: the dsl module exports the constants too (re-arc's does). */
void imports_scan(ImportScope *sc, const Stmt *body, bool dsl_consts);
void imports_free(ImportScope *sc);
/* The DSL name `name` stands for: the target of `import X as name`, or
 * name itself. */
const char *imports_target(const ImportScope *sc, const char *name);
/* Whether name is bound, standing for a constant (is_const) or for a
 * primitive (shim: one the batt_gpu shim provides, not dsl.py). */
bool imports_bind(const ImportScope *sc, const char *name, bool is_const, bool shim);

#endif
