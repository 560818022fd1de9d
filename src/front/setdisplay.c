/* setdisplay.c -- a set display as CPython 3.11 compiles it (setdisplay.h). */
#include "setdisplay.h"

#include <string.h>

bool ast_folds_to_const(const Expr *e)
{
    switch (e->kind) {
    case E_INT: case E_FLOAT: case E_STR: case E_TRUE: case E_FALSE: case E_NONE:
        return true;
    case E_TUPLE:
        for (const Expr *it = e->u.list.items; it; it = it->next)
            if (!ast_folds_to_const(it))
                return false;
        return true;
    case E_NEG: case E_POS: case E_NOT: case E_INVERT:
        return ast_folds_to_const(e->u.neg);
    case E_BINOP:       /* and, or and comparisons are not folded */
        return e->u.bin.op <= PY_BITAND && ast_folds_to_const(e->u.bin.a) &&
               ast_folds_to_const(e->u.bin.b);
    case E_SUBSCRIPT:   /* a slice is not a constant in 3.11 */
        return e->u.sub.index->kind != E_SLICE && ast_folds_to_const(e->u.sub.obj) &&
               ast_folds_to_const(e->u.sub.index);
    default:
        return false;
    }
}

bool ast_frozenset_literal(const Expr *e, bool item)
{
    switch (e->kind) {
    case E_NAME: case E_INT: case E_FLOAT: case E_STR: case E_TRUE: case E_FALSE: case E_NONE:
        return item;
    case E_TUPLE: case E_SET:
        for (const Expr *it = e->u.list.items; it; it = it->next)
            if (it->kind != E_SET && !ast_frozenset_literal(it, true))
                return false;
        return true;
    case E_CALL:
        return e->u.call.fn->kind == E_NAME && strcmp(e->u.call.fn->u.name, "frozenset") == 0 &&
               (!e->u.call.args || (e->u.call.nargs == 1 && ast_frozenset_literal(e->u.call.args, false)));
    default:
        return false;
    }
}

bool set_display_folded(const Expr *items, int n)
{
    if (n <= 2)
        return false;
    for (const Expr *it = items; it; it = it->next)
        if (!ast_folds_to_const(it))
            return false;
    return true;
}

void set_display_table(PySet *s, Value *const *items, size_t n, bool folded)
{
    if (!folded) {
        pyset_init(s);
        for (size_t i = 0; i < n; i++)
            pyset_add(s, items[i]);
        return;
    }
    Value *k1 = fs_from_items(items, n);
    Value *k2 = fs_from_items(v_items(k1), k1->u.set.len);
    pyset_from_frozenset(s, k2);
    v_decref(k1);
    v_decref(k2);
}
