/* setdisplay.h -- a set display {a, b, c} as CPython 3.11 compiles it
 * (setdisplay.c): for programs' frozenset({...}) and eval's sets. */
#ifndef ARC_SETDISPLAY_H
#define ARC_SETDISPLAY_H

#include <stdbool.h>
#include "ast.h"
#include "pyset.h"

/* Whether CPython's AST optimizer turns e into a constant: a literal, or
 * a tuple, sign, `not`, arithmetic or subscript of such. */
bool ast_folds_to_const(const Expr *e);

/* What a program's lowering takes as frozenset's argument (item false) or
 * as an item of it: a tuple or set display of literals and names, or
 * frozenset of one; eval walks any other. */
bool ast_frozenset_literal(const Expr *e, bool item);

/* Whether the set display of these items is built from one constant:
 * more than two items, every one folding to a constant. */
bool set_display_folded(const Expr *items, int n);

/* The table of the set a display of the n items makes, into s (which
 * this initialises): folded, a constant frozenset (made from the items,
 * then rebuilt in its own order by the compiler's constant merging)
 * merged into an empty set; otherwise the items added one by one. */
void set_display_table(PySet *s, Value *const *items, size_t n, bool folded);

#endif
