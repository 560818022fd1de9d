/* missing.c -- the primitives a module calls that cannot run yet (ir.h). */
#include "ir.h"
#include "prim.h"

static void note_missing(const Value *v, bool *seen, int *n, StrBuf *sb)
{
    if (!v || v->type != V_FUNC || v->refs >= 0)   /* primitives are immortal */
        return;
    int p = v->u.fn.prim;
    if (p < 0 || p >= PRIM_COUNT || v != prim_value(p) || seen[p] || prim_implemented(p))
        return;
    seen[p] = true;
    if ((*n)++)
        sb_puts(sb, ", ");
    sb_puts(sb, prim_table[p].name);
}

int module_missing_prims(const IrModule *m, StrBuf *sb)
{
    bool seen[PRIM_COUNT] = {0};
    int n = 0;
    for (int p = 0; p < m->nprogs; p++)
        for (int k = 0; k < m->progs[p].nstmts; k++) {
            const IrStmt *s = &m->progs[p].stmts[k];
            note_missing(s->callee.slot < 0 ? s->callee.k : NULL, seen, &n, sb);
            for (int a = 0; a < s->nargs; a++)
                note_missing(s->args[a].slot < 0 ? s->args[a].k : NULL, seen, &n, sb);
        }
    return n;
}
