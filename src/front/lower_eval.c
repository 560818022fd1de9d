/* lower_eval.c -- `arcrun eval`: one expression lowered and run on the
 * spot. */
#include "lower.h"

Value *ir_eval_expr(Ctx *cx, const char *src, char **errmsg)
{
    return ir_eval_expr_as(cx, src, false, errmsg);
}

Value *ir_eval_expr_as(Ctx *cx, const char *src, bool rearc, char **errmsg)
{
    if (errmsg) *errmsg = NULL;
    cx->rearc = rearc;
    ParseCtx pc;
    pc_init(&pc, "<expr>", src, strlen(src), PARSE_EXPR);
    if (ast_parse(&pc) < 0) {
        if (errmsg) *errmsg = pc_take_errors(&pc);
        pc_free(&pc);
        return NULL;
    }
    if (ast_nests_deeper(pc.expr, AST_NEST_MAX)) {
        pc_free(&pc);
        return cx_raise(cx, "RecursionError", "maximum recursion depth exceeded during compilation");
    }
    if (py_needed(pc.expr)) {
        Value *v = py_eval(cx, pc.expr, rearc);
        pc_free(&pc);
        return v;
    }
    Lower L;
    memset(&L, 0, sizeof L);
    L.pc = &pc;
    L.dialect = cx->dialect;
    L.rearc = rearc;
    L.eval = true;
    IrProgram p;
    lower_begin(&L, &p);
    IrOperand res = op_slot(-1);
    int prim;
    int rc = lower_value(&L, pc.expr, &res, &prim);
    lower_seal(&L);
    lower_done(&L);
    if (rc < 0 || pc.nerr) {
        if (errmsg) *errmsg = pc_take_errors(&pc);
        pc_free(&pc);
        op_drop(&res);
        lower_program_clear(&p);
        return NULL;
    }
    pc_free(&pc);
    Value *out = ir_run(cx, &p, NULL, res);
    op_drop(&res);
    lower_program_clear(&p);
    return out;
}
