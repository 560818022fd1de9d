/* parser.y -- the Python subset that DSL programs are written in.
 *
 * The grammar is deliberately looser than what the lowering accepts (targets
 * are expressions, any call may be a statement): the parser builds the
 * tree, src/front/lower*.c check the shapes and say precisely what is wrong.
 * The lexer (lexer.l) turns layout into NEWLINE / INDENT / DEDENT and
 * emits START_FILE or START_EXPR first to pick the start symbol.
 */
%code requires {
#include "ast.h"
/* A comparison chain being parsed: last is its last operand, NULL while
 * e is a single operand, not yet a chain. */
typedef struct { Expr *e, *last; } CmpChain;
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif
}

%code provides {
int yylex(YYSTYPE *lval, YYLTYPE *lloc, yyscan_t scanner);
void yyerror(YYLTYPE *lloc, yyscan_t scanner, ParseCtx *pc, const char *msg);
/* The innermost bracket still open, if any (lexer.l). */
int lex_open_bracket(yyscan_t scanner, Loc *at, char *c);
/* Inside brackets, two values in a row (lexer.l). */
int lex_missing_comma(yyscan_t scanner);
}

%code {
#include <string.h>
/* Room for the deepest expression the compile limit lets through
 * (AST_NEST_MAX): `a if c else` takes four entries a level. */
#define YYMAXDEPTH (5 * AST_NEST_MAX)
#define LOC(l) ((Loc){ (l).first_line, (l).first_column })

static Expr *mk_seq(ParseCtx *pc, int kind, Loc at, ExprList l)
{
    Expr *e = ast_expr(pc, kind, at);
    e->u.list.items = l.head;
    e->u.list.n = l.n;
    return e;
}

/* Adjacent string literals concatenate (once, at the end). */
static Expr *concat_strings(ParseCtx *pc, ExprList l)
{
    if (l.n == 1) return l.head;
    size_t n = 0;
    for (Expr *e = l.head; e; e = e->next) n += e->u.str.len;
    char *s = arena_alloc(&pc->arena, n + 1), *p = s;
    for (Expr *e = l.head; e; e = e->next) {
        memcpy(p, e->u.str.s, e->u.str.len);
        p += e->u.str.len;
    }
    Expr *r = l.head;
    r->next = NULL;
    r->u.str.s = s;
    r->u.str.len = n;
    return r;
}

static char *dotted_join(ParseCtx *pc, const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *s = arena_alloc(&pc->arena, na + nb + 2);
    memcpy(s, a, na);
    s[na] = '.';
    memcpy(s + na + 1, b, nb);
    return s;
}

static ImportName *import_name(ParseCtx *pc, Loc at, char *name, char *as)
{
    ImportName *n = arena_alloc(&pc->arena, sizeof *n);
    n->name = name;
    n->as = as;
    n->loc = at;
    return n;
}

static Stmt *import_from(ParseCtx *pc, Loc at, char *module, ImportName *names)
{
    Stmt *s = ast_stmt(pc, S_IMPORT, at);
    s->u.import.module = module;
    s->u.import.names = names;
    return s;
}

/* A testlist: one item without a comma is the item itself. */
static Expr *testlist_expr(ParseCtx *pc, Loc at, ExprList l)
{
    if (l.n == 1 && !l.comma) return l.head;
    return mk_seq(pc, E_TUPLE, at, l);
}

static Expr *py_bin(ParseCtx *pc, Loc at, int op, Expr *a, Expr *b)
{
    Expr *e = ast_expr(pc, E_BINOP, at);
    e->u.bin.op = op; e->u.bin.a = a; e->u.bin.b = b;
    return e;
}

/* a < b < c chains unless written in parentheses, as in Python: the chain
 * so far (its last operand kept, its ops' room doubled as it fills) and
 * the next comparison, in constant time, so a long chain parses in linear
 * time. */
static CmpChain py_compare(ParseCtx *pc, Loc at, CmpChain left, int op, Expr *right)
{
    Expr *e = left.e;
    if (!left.last) {
        e = ast_expr(pc, E_COMPARE, at);
        e->u.cmp.items = left.e;
        e->u.cmp.n = 1;
        left.e->next = NULL;
        left.last = left.e;
    }
    int k = e->u.cmp.n - 1;             /* ops so far; room for a power of two */
    if ((k & (k - 1)) == 0) {
        int *ops = arena_alloc(&pc->arena, sizeof(int) * (size_t)(k ? 2 * k : 1));
        if (k)
            memcpy(ops, e->u.cmp.ops, sizeof(int) * (size_t)k);
        e->u.cmp.ops = ops;
    }
    e->u.cmp.ops[k] = op;
    left.last->next = right;
    right->next = NULL;
    e->u.cmp.n++;
    return (CmpChain){ e, right };
}

/* Each level of an expression takes a character at least: a statement on
 * one line shorter than the limit is not walked. */
static bool short_line(YYLTYPE at)
{
    return at.first_line == at.last_line && at.last_column - at.first_column < AST_NEST_MAX;
}

/* A statement whose expressions CPython's compiler takes (AST_NEST_MAX);
 * false, with the error, for one nested deeper. */
static bool shallow(ParseCtx *pc, Stmt *s, YYLTYPE at)
{
    if (short_line(at))
        return true;
    bool deep = false;
    switch (s->kind) {
    case S_EXPR: deep = ast_nests_deeper(s->u.expr, AST_NEST_MAX); break;
    case S_ASSIGN:
        deep = ast_list_nests_deeper(s->u.assign.targets, AST_NEST_MAX) ||
               ast_nests_deeper(s->u.assign.value, AST_NEST_MAX);
        break;
    case S_RETURN: deep = ast_list_nests_deeper(s->u.ret.values, AST_NEST_MAX); break;
    default: break;
    }
    if (deep)
        pc_error(pc, s->loc, "program nested too deeply");
    return !deep;
}

static bool shallow_exc(ParseCtx *pc, Expr *e, YYLTYPE at)
{
    if (short_line(at) || !ast_nests_deeper(e, AST_NEST_MAX))
        return true;
    pc_error(pc, e->loc, "program nested too deeply");
    return false;
}

/* A top-level line or def: to the hook, or onto the body.  s may be a
 * chain of `a; b` statements; the body's end is kept, since walking the
 * body to it made a file of n defs O(n^2). */
static int top_stmt(ParseCtx *pc, Stmt *s)
{
    if (pc->on_stmt)
        return pc->on_stmt(pc, s);
    Stmt **t = pc->body_end ? pc->body_end : &pc->body;
    while (*t) t = &(*t)->next;
    *t = s;
    pc->body_end = t;
    return 0;
}

static Expr *mk_call(ParseCtx *pc, Expr *fn, ExprList args)
{
    Expr *e = ast_expr(pc, E_CALL, fn->loc);
    e->u.call.fn = fn;
    e->u.call.args = args.head;
    e->u.call.nargs = args.n;
    return e;
}

/* A sign folded into a number literal: the UnaryOp CPython's tree keeps */
static void signed_once(Expr *e)
{
    if (e->signs < UINT16_MAX)
        e->signs++;
}

static Expr *py_slice(ParseCtx *pc, Loc at, Expr *lo, Expr *hi, Expr *step)
{
    Expr *e = ast_expr(pc, E_SLICE, at);
    e->u.slice.lo = lo; e->u.slice.hi = hi; e->u.slice.step = step;
    return e;
}
}

%define api.pure full
%locations
%define parse.error detailed
%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {ParseCtx *pc}

%union {
    int64_t i;
    double f;
    struct { char *s; size_t len; } str;
    char *name;
    Expr *expr;
    ExprList el;
    Stmt *stmt;
    StmtList sl;
    ImportName *imp;
    CmpChain cmp;
}

%token START_FILE START_EXPR
%token NEWLINE "end of line"
%token INDENT "indent"
%token DEDENT "dedent"
%token LEXERROR "invalid token"
%token <name> NAME "name"
%token <i> INT "integer"
%token <f> FLOAT "float"
%token <str> STRING "string"
%token DEF "'def'" RETURN "'return'" TRY "'try'" EXCEPT "'except'"
%token FROM "'from'" IMPORT "'import'" AS "'as'" PASS "'pass'"
%token TRUE "'True'" FALSE "'False'" NONE "'None'"
%token ARROW "'->'"
/* arcrun eval only: the lexer makes these in expression mode */
%token IF "'if'" ELSE "'else'" LAMBDA "'lambda'" AND "'and'" OR "'or'" NOT "'not'"
%token IN "'in'" IS "'is'" EQ "'=='" NE "'!='" LE "'<='" GE "'>='" FLOORDIV "'//'" POW "'**'"

%type <expr> expr except_clause
%type <expr> py_test py_or py_and py_not py_bor py_bxor py_band py_arith py_term py_factor
%type <expr> py_power py_primary
%type <expr> py_atom py_sub py_opt py_arg
%type <el> py_testlist py_test_list py_args py_arglist py_names
%type <i> py_cmp_op
%type <cmp> py_cmp
%type <el> testlist expr_list params param_list strings
%type <stmt> simple_stmt small_stmt compound_stmt funcdef try_stmt import_stmt
%type <sl> suite stmt_list
%type <name> dotted
%type <imp> import_as import_as_list

/* A call or attribute binds tighter than a unary sign: -f(x) is -(f(x)). */
%precedence UNARY
%precedence '(' '.'

%%

start
    : START_FILE file_input
    | START_EXPR py_testlist        { pc->expr = testlist_expr(pc, LOC(@2), $2); }
    ;

file_input
    : %empty
    | file_input NEWLINE
    | file_input simple_stmt            { if (top_stmt(pc, $2) < 0) YYABORT; }
    | file_input compound_stmt          { if (top_stmt(pc, $2) < 0) YYABORT; }
    ;

/* A line's statements, `a; b` chained by next.  A single statement per
 * rule where one will do: these rules run for every line of a program. */
simple_stmt
    : small_stmt NEWLINE                { if (!shallow(pc, $1, @1)) YYABORT; }
    | small_stmt ';' NEWLINE            { if (!shallow(pc, $1, @1)) YYABORT; }
    | small_stmt ';' simple_stmt        { if (!shallow(pc, $1, @1)) YYABORT; $$ = $1; $1->next = $3; }
    ;

small_stmt
    : testlist
        {
            $$ = ast_stmt(pc, S_EXPR, LOC(@1));
            $$->u.expr = testlist_expr(pc, LOC(@1), $1);
        }
    | testlist '=' testlist
        {
            $$ = ast_stmt(pc, S_ASSIGN, LOC(@1));
            $$->u.assign.targets = $1.head;
            $$->u.assign.ntargets = $1.n;
            $$->u.assign.tuple = $1.n > 1 || $1.comma;
            $$->u.assign.value = testlist_expr(pc, LOC(@3), $3);
        }
    | RETURN
        { $$ = ast_stmt(pc, S_RETURN, LOC(@1)); }
    | RETURN testlist
        {
            $$ = ast_stmt(pc, S_RETURN, LOC(@1));
            if ($2.n == 1 && !$2.comma && $2.head->kind == E_TUPLE) {
                /* return (a, b) is return a, b */
                $$->u.ret.values = $2.head->u.list.items;
                $$->u.ret.n = $2.head->u.list.n;
            } else {
                $$->u.ret.values = $2.head;
                $$->u.ret.n = $2.n;
            }
        }
    | PASS                              { $$ = ast_stmt(pc, S_PASS, LOC(@1)); }
    | import_stmt
    ;

import_stmt
    : IMPORT dotted_as_list             { $$ = ast_stmt(pc, S_IMPORT, LOC(@1)); }
    | FROM dotted IMPORT '*'            { $$ = import_from(pc, LOC(@1), $2, NULL); }
    | FROM dotted IMPORT import_as_list { $$ = import_from(pc, LOC(@1), $2, $4); }
    | FROM dotted IMPORT '(' import_as_list opt_comma ')'
                                        { $$ = import_from(pc, LOC(@1), $2, $5); }
    ;

dotted
    : NAME
    | dotted '.' NAME                   { $$ = dotted_join(pc, $1, $3); }
    ;

dotted_as_list
    : dotted_as
    | dotted_as_list ',' dotted_as
    ;

dotted_as
    : dotted                            { (void)$1; }
    | dotted AS NAME                    { (void)$1; }
    ;

import_as_list
    : import_as
    | import_as_list ',' import_as      { $$ = $1; ImportName *t = $1; while (t->next) t = t->next; t->next = $3; }
    ;

import_as
    : NAME                              { $$ = import_name(pc, LOC(@1), $1, NULL); }
    | NAME AS NAME                      { $$ = import_name(pc, LOC(@1), $1, $3); }
    ;

opt_comma
    : %empty
    | ','
    ;

compound_stmt
    : funcdef
    | try_stmt
    ;

funcdef
    : DEF NAME '(' params ')' returns ':' suite
        {
            $$ = ast_stmt(pc, S_DEF, LOC(@1));
            $$->u.def.name = $2;
            $$->u.def.params = $4.head;
            $$->u.def.nparams = $4.n;
            $$->u.def.body = $8.head;
        }
    ;

/* Annotations (I: Grid, -> Grid) are read and set aside: CPython keeps
 * them in __annotations__, which no DSL program reads. */
returns
    : %empty
    | ARROW expr                        { (void)$2; }
    ;

annotation
    : %empty
    | ':' expr                          { (void)$2; }
    ;

params
    : %empty                            { $$ = (ExprList){0}; }
    | param_list opt_comma
    ;

param_list
    : NAME annotation
        {
            $$ = (ExprList){0};
            Expr *e = ast_expr(pc, E_NAME, LOC(@1));
            e->u.name = $1;
            el_push(&$$, e);
        }
    | param_list ',' NAME annotation
        {
            $$ = $1;
            Expr *e = ast_expr(pc, E_NAME, LOC(@3));
            e->u.name = $3;
            el_push(&$$, e);
        }
    ;

try_stmt
    : TRY ':' suite EXCEPT except_clause ':' suite
        {
            $$ = ast_stmt(pc, S_TRY, LOC(@1));
            $$->u.try_.body = $3.head;
            $$->u.try_.exc = $5;
            $$->u.try_.handler = $7.head;
            $$->u.try_.except = LOC(@4);
        }
    ;

except_clause
    : %empty                            { $$ = NULL; }
    | expr                              { $$ = $1; if (!shallow_exc(pc, $1, @1)) YYABORT; }
    | expr AS NAME                      { $$ = $1; if (!shallow_exc(pc, $1, @1)) YYABORT; }
    ;

suite
    : simple_stmt                       { $$ = (StmtList){ $1, $1 }; while ($$.tail->next) $$.tail = $$.tail->next; }
    | NEWLINE INDENT stmt_list DEDENT   { $$ = $3; }
    ;

stmt_list
    : simple_stmt                       { $$ = (StmtList){ $1, $1 }; while ($$.tail->next) $$.tail = $$.tail->next; }
    | compound_stmt                     { $$ = (StmtList){ $1, $1 }; }
    | stmt_list simple_stmt
        {
            $$ = $1;
            $$.tail->next = $2;
            while ($$.tail->next) $$.tail = $$.tail->next;
        }
    | stmt_list compound_stmt           { $$ = $1; $$.tail->next = $2; $$.tail = $2; }
    ;

/* One item is a testlist without a list node of its own (expr_list holds
 * two or more): the target and the value of `x = f(a)` take one reduction
 * each. */
testlist
    : expr                              { $$ = (ExprList){0}; el_push(&$$, $1); }
    | expr ','                          { $$ = (ExprList){0}; el_push(&$$, $1); $$.comma = 1; }
    | expr_list
    | expr_list ','
    ;

expr_list
    : expr ',' expr                     { $$ = (ExprList){0}; el_push(&$$, $1); el_push(&$$, $3); $$.comma = 1; }
    | expr_list ',' expr                { $$ = $1; el_push(&$$, $3); }
    ;

/* One nonterminal for atoms, calls and signs: a name is an expr in one
 * reduction, not three (atom, postfix, expr); the parse of a program is
 * mostly these. */
expr
    : NAME                              { $$ = ast_expr(pc, E_NAME, LOC(@1)); $$->u.name = $1; }
    | INT                               { $$ = ast_expr(pc, E_INT, LOC(@1)); $$->u.i = $1; }
    | FLOAT                             { $$ = ast_expr(pc, E_FLOAT, LOC(@1)); $$->u.f = $1; }
    | strings                           { $$ = concat_strings(pc, $1); }
    | TRUE                              { $$ = ast_expr(pc, E_TRUE, LOC(@1)); }
    | FALSE                             { $$ = ast_expr(pc, E_FALSE, LOC(@1)); }
    | NONE                              { $$ = ast_expr(pc, E_NONE, LOC(@1)); }
    | '(' ')'                           { $$ = mk_seq(pc, E_TUPLE, LOC(@1), (ExprList){0}); }
    | '(' testlist ')'
        {
            if ($2.n == 1 && !$2.comma) $$ = $2.head;
            else $$ = mk_seq(pc, E_TUPLE, LOC(@1), $2);
        }
    | '[' ']'                           { $$ = mk_seq(pc, E_LIST, LOC(@1), (ExprList){0}); }
    | '[' testlist ']'                  { $$ = mk_seq(pc, E_LIST, LOC(@1), $2); }
    | '{' '}'                           { $$ = mk_seq(pc, E_SET, LOC(@1), (ExprList){0}); }
    | '{' testlist '}'                  { $$ = mk_seq(pc, E_SET, LOC(@1), $2); }
    | expr '(' ')'                      { $$ = mk_call(pc, $1, (ExprList){0}); }
    | expr '(' testlist ')'             { $$ = mk_call(pc, $1, $3); }
    | expr '.' NAME
        {
            $$ = ast_expr(pc, E_ATTR, LOC(@3));
            $$->u.attr.obj = $1;
            $$->u.attr.name = $3;
        }
    | '-' expr %prec UNARY
        {
            if ($2->kind == E_INT && $2->u.i != INT64_MIN) {
                $$ = $2; $$->u.i = -$$->u.i; $$->loc = LOC(@1);
            } else if ($2->kind == E_FLOAT) {
                $$ = $2; $$->u.f = -$$->u.f; $$->loc = LOC(@1);
            } else {
                $$ = ast_expr(pc, E_NEG, LOC(@1));
                $$->u.neg = $2;
            }
        }
    | '+' expr %prec UNARY
        {
            if ($2->kind == E_INT || $2->kind == E_FLOAT) {
                $$ = $2; $$->loc = LOC(@1);
            } else {
                $$ = ast_expr(pc, E_POS, LOC(@1));
                $$->u.neg = $2;
            }
        }
    ;

/* ---- arcrun eval: Python's expression grammar, as far as eval goes ---------- */

py_testlist
    : py_test_list
    | py_test_list ','                  { $$ = $1; $$.comma = 1; }
    ;

py_test_list
    : py_test                           { $$ = (ExprList){0}; el_push(&$$, $1); }
    | py_test_list ',' py_test          { $$ = $1; $$.comma = 1; el_push(&$$, $3); }
    ;

py_test
    : py_or
    | py_or IF py_or ELSE py_test
        {
            $$ = ast_expr(pc, E_IFEXP, LOC(@2));
            $$->u.ifexp.a = $1; $$->u.ifexp.cond = $3; $$->u.ifexp.b = $5;
        }
    | LAMBDA py_names ':' py_test
        {
            $$ = ast_expr(pc, E_LAMBDA, LOC(@1));
            $$->u.lambda.params = $2.head; $$->u.lambda.n = $2.n; $$->u.lambda.body = $4;
        }
    ;

py_names
    : %empty                            { $$ = (ExprList){0}; }
    | NAME                              { $$ = (ExprList){0}; Expr *e = ast_expr(pc, E_NAME, LOC(@1)); e->u.name = $1; el_push(&$$, e); }
    | py_names ',' NAME                 { $$ = $1; Expr *e = ast_expr(pc, E_NAME, LOC(@3)); e->u.name = $3; el_push(&$$, e); }
    ;

py_or
    : py_and
    | py_or OR py_and                   { $$ = py_bin(pc, LOC(@2), PY_OR, $1, $3); }
    ;

py_and
    : py_not
    | py_and AND py_not                 { $$ = py_bin(pc, LOC(@2), PY_AND, $1, $3); }
    ;

py_not
    : py_cmp                            { $$ = $1.e; }
    | NOT py_not                        { $$ = ast_expr(pc, E_NOT, LOC(@1)); $$->u.neg = $2; }
    ;

py_cmp
    : py_bor                            { $$ = (CmpChain){ $1, NULL }; }
    | py_cmp py_cmp_op py_bor           { $$ = py_compare(pc, LOC(@2), $1, (int)$2, $3); }
    ;

py_bor
    : py_bxor
    | py_bor '|' py_bxor                { $$ = py_bin(pc, LOC(@2), PY_BITOR, $1, $3); }
    ;

py_bxor
    : py_band
    | py_bxor '^' py_band               { $$ = py_bin(pc, LOC(@2), PY_BITXOR, $1, $3); }
    ;

py_band
    : py_arith
    | py_band '&' py_arith              { $$ = py_bin(pc, LOC(@2), PY_BITAND, $1, $3); }
    ;

py_cmp_op
    : '<'                               { $$ = PY_LT; }
    | '>'                               { $$ = PY_GT; }
    | EQ                                { $$ = PY_EQ; }
    | NE                                { $$ = PY_NE; }
    | LE                                { $$ = PY_LE; }
    | GE                                { $$ = PY_GE; }
    | IN                                { $$ = PY_IN; }
    | NOT IN                            { $$ = PY_NOT_IN; }
    | IS                                { $$ = PY_IS; }
    | IS NOT                            { $$ = PY_IS_NOT; }
    ;

py_arith
    : py_term
    | py_arith '+' py_term              { $$ = py_bin(pc, LOC(@2), PY_ADD, $1, $3); }
    | py_arith '-' py_term              { $$ = py_bin(pc, LOC(@2), PY_SUB, $1, $3); }
    ;

py_term
    : py_factor
    | py_term '*' py_factor             { $$ = py_bin(pc, LOC(@2), PY_MUL, $1, $3); }
    | py_term '/' py_factor             { $$ = py_bin(pc, LOC(@2), PY_DIV, $1, $3); }
    | py_term FLOORDIV py_factor        { $$ = py_bin(pc, LOC(@2), PY_FLOORDIV, $1, $3); }
    | py_term '%' py_factor             { $$ = py_bin(pc, LOC(@2), PY_MOD, $1, $3); }
    ;

py_factor
    : py_power
    | '-' py_factor
        {
            if ($2->kind == E_INT && $2->u.i != INT64_MIN && !$2->paren) {
                $$ = $2; $$->u.i = -$$->u.i; $$->loc = LOC(@1); signed_once($$);
            } else if ($2->kind == E_FLOAT && !$2->paren) {
                $$ = $2; $$->u.f = -$$->u.f; $$->loc = LOC(@1); signed_once($$);
            } else {
                $$ = ast_expr(pc, E_NEG, LOC(@1));
                $$->u.neg = $2;
            }
        }
    | '+' py_factor                     { $$ = ast_expr(pc, E_POS, LOC(@1)); $$->u.neg = $2; }
    | '~' py_factor                     { $$ = ast_expr(pc, E_INVERT, LOC(@1)); $$->u.neg = $2; }
    ;

py_power
    : py_primary
    | py_primary POW py_factor          { $$ = py_bin(pc, LOC(@2), PY_POW, $1, $3); }
    ;

py_primary
    : py_atom
    | py_primary '(' py_args ')'
        {
            $$ = ast_expr(pc, E_CALL, $1->loc);
            $$->u.call.fn = $1;
            $$->u.call.args = $3.head;
            $$->u.call.nargs = $3.n;
        }
    | py_primary '[' py_sub ']'
        {
            $$ = ast_expr(pc, E_SUBSCRIPT, LOC(@2));
            $$->u.sub.obj = $1; $$->u.sub.index = $3;
        }
    | py_primary '.' NAME
        {
            $$ = ast_expr(pc, E_ATTR, LOC(@3));
            $$->u.attr.obj = $1;
            $$->u.attr.name = $3;
        }
    ;

py_sub
    : py_test
    | py_opt ':' py_opt                 { $$ = py_slice(pc, LOC(@2), $1, $3, NULL); }
    | py_opt ':' py_opt ':' py_opt      { $$ = py_slice(pc, LOC(@2), $1, $3, $5); }
    ;

py_opt
    : %empty                            { $$ = NULL; }
    | py_test
    ;

py_args
    : %empty                            { $$ = (ExprList){0}; }
    | py_arglist
    | py_arglist ','
    ;

py_arglist
    : py_arg                            { $$ = (ExprList){0}; el_push(&$$, $1); }
    | py_arglist ',' py_arg             { $$ = $1; el_push(&$$, $3); }
    ;

py_arg
    : py_test
    | NAME '=' py_test
        {
            $$ = ast_expr(pc, E_KEYWORD, LOC(@1));
            $$->u.kw.name = $1; $$->u.kw.value = $3;
        }
    ;

py_atom
    : NAME                              { $$ = ast_expr(pc, E_NAME, LOC(@1)); $$->u.name = $1; }
    | INT                               { $$ = ast_expr(pc, E_INT, LOC(@1)); $$->u.i = $1; }
    | FLOAT                             { $$ = ast_expr(pc, E_FLOAT, LOC(@1)); $$->u.f = $1; }
    | strings                           { $$ = concat_strings(pc, $1); }
    | TRUE                              { $$ = ast_expr(pc, E_TRUE, LOC(@1)); }
    | FALSE                             { $$ = ast_expr(pc, E_FALSE, LOC(@1)); }
    | NONE                              { $$ = ast_expr(pc, E_NONE, LOC(@1)); }
    | '(' ')'                           { $$ = mk_seq(pc, E_TUPLE, LOC(@1), (ExprList){0}); }
    | '(' py_testlist ')'
        {
            if ($2.n == 1 && !$2.comma) { $$ = $2.head; $$->paren = 1; }
            else $$ = mk_seq(pc, E_TUPLE, LOC(@1), $2);
        }
    | '[' ']'                           { $$ = mk_seq(pc, E_LIST, LOC(@1), (ExprList){0}); }
    | '[' py_testlist ']'               { $$ = mk_seq(pc, E_LIST, LOC(@1), $2); }
    | '{' '}'                           { $$ = mk_seq(pc, E_SET, LOC(@1), (ExprList){0}); }
    | '{' py_testlist '}'               { $$ = mk_seq(pc, E_SET, LOC(@1), $2); }
    ;

strings
    : STRING
        {
            $$ = (ExprList){0};
            Expr *e = ast_expr(pc, E_STR, LOC(@1));
            e->u.str.s = $1.s;
            e->u.str.len = $1.len;
            el_push(&$$, e);
        }
    | strings STRING
        {
            $$ = $1;
            Expr *e = ast_expr(pc, E_STR, LOC(@2));
            e->u.str.s = $2.s;
            e->u.str.len = $2.len;
            el_push(&$$, e);
        }
    ;

%%

void yyerror(YYLTYPE *lloc, yyscan_t scanner, ParseCtx *pc, const char *msg)
{
    (void)scanner;
    if (pc->lex_failed) return;     /* the lexer said it better */
    if (strcmp(msg, "memory exhausted") == 0)
        msg = "program nested too deeply";
    /* an error lines after an unclosed bracket is that bracket's fault */
    Loc open;
    char c;
    if (lex_open_bracket(scanner, &open, &c) && open.line < lloc->first_line) {
        pc_error(pc, open, "'%c' was never closed", c);
        return;
    }
    if (lex_missing_comma(scanner)) msg = "syntax error: perhaps a comma is missing?";
    pc_error(pc, LOC(*lloc), "%s", msg);
}
