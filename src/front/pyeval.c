/* pyeval.c -- `arcrun eval` with the Python people type around DSL calls:
 * lambda, list/set/tuple displays, the builtins len abs min max sum sorted
 * range tuple list frozenset set any all, arithmetic, bitwise and set
 * (| ^ & ~) and comparison operators (pyops.c), subscripts and slices,
 * conditional expressions, key=.  The expression is walked as CPython evaluates it;
 * DSL calls go through v_call as in programs.  A list, set or range is a
 * flagged tuple or frozenset (value.h V_FLAG_LIST...): DSL primitives are
 * handed tuples and frozensets only, and a list given to one is refused by
 * name, since the DSLs' `type(x)(...)` would make a list where arcrun
 * makes a tuple. */
#include "pyeval.h"
#include "pyexc.h"
#include "pysort.h"
#include "setdisplay.h"
#include "vgrid.h"

#include <pthread.h>
#include <stddef.h>

static Value *ev(Py *py, const Expr *e, const Env *env);

/* A builtin as a value (handed to a DSL function): positional calls only.
 * It and a lambda keep a copy of the eval's Py (keep() below), its Ctx
 * replaced by the caller's at each call. */
typedef struct { Py *py; int index; char name[16]; } BuiltinRef;
typedef struct { Py *py; const Expr *lambda; const Env *env; char name[16]; } LambdaRef;

static Value *builtin_invoke(Ctx *cx, Value *self, Value *const *argv);

/* f's BuiltinRef when f is one of eval's builtins, else NULL */
static BuiltinRef *builtin_ref(const Value *f)
{
    return f->type == V_FUNC && f->u.fn.invoke == builtin_invoke
         ? (BuiltinRef *)(void *)(f->u.fn.name - offsetof(BuiltinRef, name)) : NULL;
}

static Value *builtin_mismatch(Ctx *cx, Value *self, int argc, Value *const *argv)
{
    BuiltinRef *b = builtin_ref(self);
    Py py = *b->py;
    py.cx = cx;
    return py_builtins[b->index].fn(&py, argv, argc, NULL, false);
}

static Value *builtin_invoke(Ctx *cx, Value *self, Value *const *argv)
{
    return builtin_mismatch(cx, self, 1, argv);
}

/* ---- lambdas ---------------------------------------------------------------------- */

static Value *lambda_invoke(Ctx *cx, Value *self, Value *const *argv)
{
    LambdaRef *l = (LambdaRef *)(void *)(self->u.fn.name - offsetof(LambdaRef, name));
    Env env = {l->env, l->lambda->u.lambda.params, argv};
    Py py = *l->py;
    py.cx = cx;
    return ev(&py, l->lambda->u.lambda.body, &env);
}

static Value *lambda_mismatch(Ctx *cx, Value *self, int argc, Value *const *argv)
{
    (void)argv;
    LambdaRef *l = (LambdaRef *)(void *)(self->u.fn.name - offsetof(LambdaRef, name));
    const char *names[V_ARITY_ANY];
    int n = 0;
    for (const Expr *p = l->lambda->u.lambda.params; p && n < V_ARITY_ANY; p = p->next)
        names[n++] = p->u.name;
    char msg[512];
    pyexc_arity_words(msg, sizeof msg, "<lambda>", n, names, NULL, argc);
    return cx_raise(cx, "TypeError", "%s", msg);
}

/* What function values made here point to (their Py, a lambda's
 * arguments) must outlive the eval: a result or a DSL closure may hold
 * them.  They are few and small, and stay, reachable, for the process. */
typedef struct Kept { struct Kept *next; _Alignas(max_align_t) unsigned char data[]; } Kept;
static Kept *kept_;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static void *keep(size_t n)
{
    Kept *k = calloc(1, sizeof *k + n);
    if (!k)
        abort();
    pthread_mutex_lock(&kept_lock);
    k->next = kept_;
    kept_ = k;
    pthread_mutex_unlock(&kept_lock);
    return k->data;
}

/* A lambda's enclosing arguments, copied out of the frames that hold them. */
static const Env *env_keep(const Env *env)
{
    if (!env)
        return NULL;
    Env *e = keep(sizeof *e);
    int n = 0;
    for (const Expr *p = env->params; p; p = p->next)
        n++;
    Value **vals = keep(sizeof *vals * (size_t)(n + 1));
    for (int k = 0; k < n; k++)
        vals[k] = v_incref(env->vals[k]);
    e->params = env->params;
    e->vals = vals;
    e->up = env_keep(env->up);
    return e;
}

/* ---- names ------------------------------------------------------------------------ */

/* Builtin b as a value, immortal and one per dialect, as CPython has one
 * len: `len == len` holds, and a set of builtins has one. */
static Value *builtin_value(const Py *py, int b)
{
    static Value *made[DIALECT_COUNT][2][PY_BUILTINS_MAX];
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    Value **slot = &made[py->dialect][py->rearc][b];
    pthread_mutex_lock(&lock);
    if (!*slot) {
        BuiltinRef *r = keep(sizeof *r);
        r->py = keep(sizeof *r->py);
        *r->py = *py;
        r->py->cx = NULL;       /* the caller's, at each call */
        r->index = b;
        snprintf(r->name, sizeof r->name, "%s", py_builtins[b].name);
        /* called through v_call (a DSL function applying it) with one argument,
         * or through the mismatch hook, which is told how many */
        Value *f = v_func_new(builtin_invoke, r->name, py_builtins[b].cls ? V_PRIM_CLASS : V_PRIM_BUILTIN,
                              1, 0, 0, NULL);
        f->u.fn.mismatch = builtin_mismatch;
        f->refs = -1;
        *slot = f;
    }
    pthread_mutex_unlock(&lock);
    return *slot;
}

static Value *name_value(Py *py, const Expr *e, const Env *env)
{
    const char *name = e->u.name;
    for (const Env *s = env; s; s = s->up) {
        int k = 0;
        for (const Expr *p = s->params; p; p = p->next, k++)
            if (strcmp(p->u.name, name) == 0)
                return v_incref(s->vals[k]);
    }
    Value *c = const_lookup(py->dialect, name);
    if (c)
        return v_incref(c);
    int id = py->rearc ? prim_lookup_rearc(name) : prim_lookup(py->dialect, name);
    if (id >= 0)
        return prim_value(id);
    int b = py_builtin_index(name);
    if (b >= 0)
        return builtin_value(py, b);
    return cx_raise(py->cx, "NameError", "name '%s' is not defined", name);
}

/* ---- subscripts ------------------------------------------------------------------- */

static int64_t clamp(int64_t i, int64_t n, int64_t step, bool lo)
{
    if (i < 0)
        i += n;
    if (step > 0)
        return i < 0 ? 0 : i > n ? n : i;
    (void)lo;
    return i < -1 ? -1 : i > n - 1 ? n - 1 : i;
}

/* obj[i] or obj[p0:p1:p2] on values evaluated already: CPython evaluates
 * the index, every part of a slice, before it looks at obj. */
static Value *subscript_values(Py *py, Value *obj, bool slice, Value *const *p)
{
    Ctx *cx = py->cx;
    if (obj->type != V_TUPLE && obj->type != V_STR)
        return cx_raise(cx, "TypeError", "'%s' object is not subscriptable", v_typename(obj));
    bool range = obj->flags & V_FLAG_RANGE, str = obj->type == V_STR;
    Value *seq = obj->type == V_TUPLE ? py_items_of(cx, obj) : v_incref(obj);
    if (!seq)
        return NULL;
    int64_t n = str ? (int64_t)seq->u.str.len : (int64_t)seq->u.tup.len;
    Value *r = NULL;
    if (slice) {
        for (int k = 0; k < 3; k++)
            if (p[k] && p[k]->type != V_NONE && !v_is_int(p[k])) {
                cx_raise(cx, "TypeError", "slice indices must be integers or None or have an __index__ method");
                goto out;
            }
        int64_t step = p[2] && p[2]->type != V_NONE ? p[2]->u.i : 1;
        if (step == 0) {
            cx_raise(cx, "ValueError", "slice step cannot be zero");
            goto out;
        }
        int64_t lo = p[0] && p[0]->type != V_NONE ? clamp(p[0]->u.i, n, step, true) : step > 0 ? 0 : n - 1;
        int64_t hi = p[1] && p[1]->type != V_NONE ? clamp(p[1]->u.i, n, step, false) : step > 0 ? n : -1;
        size_t cnt = 0;
        Value **items = malloc(((size_t)n + 1) * sizeof *items);
        char *chars = malloc((size_t)n + 1);
        for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) {
            if (str)
                chars[cnt++] = seq->u.str.s[i];
            else
                items[cnt++] = v_titems(seq)[i];
        }
        if (range) {     /* a range's slice is a range, as rangeobject.c computes it */
            int64_t start = v_titems(obj)[0]->u.i, s = v_titems(obj)[2]->u.i;
            Value *rg[3] = {v_int(start + lo * s), v_int(start + hi * s), v_int(s * step)};
            r = v_tuple_from(rg, 3);
            r->flags |= V_FLAG_RANGE;
        } else {
            r = str ? v_str(chars, cnt)
              : obj->flags & V_FLAG_LIST ? py_new_list(items, cnt) : v_tuple_from(items, cnt);
        }
        free(items);
        free(chars);
    } else if (!v_is_int(p[0])) {
        if (str)
            cx_raise(cx, "TypeError", "string indices must be integers, not '%s'", v_typename(p[0]));
        else
            cx_raise(cx, "TypeError", "%s indices must be integers or slices, not %s", v_typename(obj),
                     v_typename(p[0]));
    } else {
        int64_t k = p[0]->u.i < 0 ? p[0]->u.i + n : p[0]->u.i;
        if (k < 0 || k >= n)
            cx_raise(cx, "IndexError", "%s index out of range",
                     str ? "string" : range ? "range object" : v_typename(obj));
        else
            r = str ? v_str(seq->u.str.s + k, 1) : v_incref(v_titems(seq)[k]);
    }
out:
    v_decref(seq);
    return r;
}

static Value *subscript(Py *py, Value *obj, const Expr *index, const Env *env)
{
    Value *p[3] = {NULL, NULL, NULL}, *r = NULL;
    bool slice = index->kind == E_SLICE;
    const Expr *parts[3] = {slice ? index->u.slice.lo : index, slice ? index->u.slice.hi : NULL,
                            slice ? index->u.slice.step : NULL};
    for (int k = 0; k < 3; k++)
        if (parts[k] && !(p[k] = ev(py, parts[k], env)))
            goto out;
    r = subscript_values(py, obj, slice, p);
out:
    for (int k = 0; k < 3; k++)
        v_decref(p[k]);
    return r;
}

/* ---- the walk ---------------------------------------------------------------------- */

static bool is_dsl(Value *f) { return f->type == V_FUNC && f->u.fn.prim >= 0 && f->refs < 0; }

/* A list, set or range in v or in its tuples, at any depth, or NULL: a DSL
 * function's type(x)(...) or slice of one would make a list where arcrun
 * makes a tuple (vmirror(([1, 2],)) is ([2, 1],)).  Frozensets hold none
 * that matter: lists and sets are unhashable. */
static const Value *python_inside(const Value *v)
{
    if (v->flags & V_FLAGS_PY)
        return v;
    if (v->type != V_TUPLE || vg_is(v) || (v->flags & V_FLAG_GRID))
        return NULL;
    for (size_t i = 0; i < v->u.tup.len; i++) {
        const Value *in = python_inside(v_titems(v)[i]);
        if (in)
            return in;
    }
    return NULL;
}

static Value *call(Py *py, const Expr *e, const Env *env)
{
    Ctx *cx = py->cx;
    Value *f = ev(py, e->u.call.fn, env);
    if (!f)
        return NULL;
    Value *small[IR_MAX_ARGS + 8], **argv = small, *key = NULL, *dflt = NULL, *start = NULL, *r = NULL;
    const char *refused = NULL, *dsl_kw[PY_DSL_KEYWORDS_MAX];
    Value *dsl_val[PY_DSL_KEYWORDS_MAX];
    bool reverse = false;
    int n = 0, nkw = 0, ndsl = 0;
    size_t cap = sizeof small / sizeof small[0];
    for (const Expr *a = e->u.call.args; a; a = a->next) {
        if (a->kind == E_KEYWORD) {
            Value *v = ev(py, a->u.kw.value, env);
            if (!v)
                goto out;
            nkw++;
            const BuiltinRef *ref = builtin_ref(f);
            int kws = ref ? py_builtins[ref->index].keywords : 0;
            bool ok = (strcmp(a->u.kw.name, "key") == 0 && (kws & PY_KW_KEY)) ||
                      (strcmp(a->u.kw.name, "reverse") == 0 && (kws & PY_KW_REVERSE)) ||
                      (strcmp(a->u.kw.name, "default") == 0 && (kws & PY_KW_DEFAULT)) ||
                      (strcmp(a->u.kw.name, "start") == 0 && (kws & PY_KW_START));
            if (!ok && is_dsl(f) && ndsl < PY_DSL_KEYWORDS_MAX) {     /* bound by name below */
                dsl_kw[ndsl] = a->u.kw.name;
                dsl_val[ndsl++] = v;
                continue;
            }
            if (!ok) {          /* refused once every argument is evaluated */
                refused = refused ? refused : a->u.kw.name;
                v_decref(v);
                continue;
            }
            if (strcmp(a->u.kw.name, "key") == 0) {
                v_decref(key);
                key = v->type == V_NONE ? (v_decref(v), NULL) : v;
            } else if (strcmp(a->u.kw.name, "default") == 0) {
                v_decref(dflt);
                dflt = v;
            } else if (strcmp(a->u.kw.name, "start") == 0) {
                v_decref(start);
                start = v;
            } else {
                reverse = v_truthy(v);
                v_decref(v);
            }
            continue;
        }
        if ((size_t)n == cap)   /* c_zo(...) with twenty: CPython's answer, not a limit of ours */
            argv = xstack_grow(argv, small, &cap, sizeof *argv);
        if (!(argv[n] = ev(py, a, env)))
            goto out;
        n++;
    }
    if (refused && f->type == V_FUNC) {     /* else v_call: not callable */
        const BuiltinRef *ref = builtin_ref(f);
        r = py_keyword_refused(py, f, ref ? ref->index : -1, argv, n, nkw, refused);
        goto out;
    }
    if (ndsl) {                 /* bound: the values move into argv */
        int bound = py_bind_keywords(cx, f, argv, n, dsl_kw, dsl_val, ndsl, &r);
        if (bound < 0)
            goto out;
        n = bound;
        ndsl = 0;
    }
    const BuiltinRef *ref = builtin_ref(f);
    if (ref) {
        int b = ref->index;
        if (start && n >= 1) {  /* sum's second argument, by name: n < cap still */
            argv[n++] = start;
            start = NULL;
        }
        if (dflt && n > 1) {
            r = cx_raise(cx, "TypeError", "Cannot specify a default for %s() with multiple positional arguments",
                         py_builtins[b].name);
            goto out;
        }
        py_default = dflt;
        r = py_builtins[b].fn(py, argv, n, key, reverse);
        py_default = NULL;
        goto out;
    }
    if (is_dsl(f))
        for (int i = 0; i < n; i++) {
            const Value *py_value = python_inside(argv[i]);
            if (py_value) {
                cx_raise(cx, "TypeError", "arcrun eval hands DSL functions tuples and frozensets, not a %s "
                         "(%s(...) first): %s() would see another type than in CPython",
                         v_typename(py_value), py_value->flags & V_FLAG_SET ? "frozenset" : "tuple",
                         f->u.fn.name);
                goto out;
            }
        }
    r = v_call(cx, f, n, argv);
out:
    for (int i = 0; i < n; i++)
        v_decref(argv[i]);
    for (int k = 0; k < ndsl; k++)
        v_decref(dsl_val[k]);
    if (argv != small)
        free(argv);
    v_decref(key);
    v_decref(dflt);
    v_decref(start);
    v_decref(f);
    return r;
}

static Value *display(Py *py, const Expr *e, const Env *env)
{
    int n = e->u.list.n;
    Value **items = malloc(((size_t)n + 1) * sizeof *items), *r = NULL;
    int k = 0;
    for (const Expr *it = e->u.list.items; it; it = it->next, k++)
        if (!(items[k] = ev(py, it, env)))
            goto out;
    if (e->kind == E_TUPLE)
        r = v_tuple_from(items, (size_t)n);
    else if (e->kind == E_LIST)
        r = py_new_list(items, (size_t)n);
    else if (n == 0)
        r = cx_raise(py->cx, "TypeError", "{} is a dict in Python, and arcrun eval has no dicts "
                     "(set() is the empty set)");
    else if (!set_display_folded(e->u.list.items, n))
        r = py_new_set(py->cx, items, (size_t)n, true);
    else {              /* constants: built as CPython's compiler builds them */
        PySet s;
        set_display_table(&s, items, (size_t)n, true);
        r = pyset_take(&s);
        r->flags |= V_FLAG_SET;
    }
out:
    for (int i = 0; i < k; i++)
        v_decref(items[i]);
    free(items);
    return r;
}

/* a and b and c ..., left-deep as the parser builds it: the operands from
 * the left, the chain walked, not descended, as CPython's one BoolOp */
static Value *bool_chain(Py *py, const Expr *e, const Env *env)
{
    int op = e->u.bin.op;
    size_t n = 0;
    const Expr *x = e;
    for (; x->kind == E_BINOP && x->u.bin.op == op; x = x->u.bin.a)
        n++;
    const Expr *local[16], **up = n <= 16 ? local : malloc(n * sizeof *up);
    if (!up)
        return cx_raise(py->cx, "MemoryError", "out of memory");
    size_t k = n;
    for (x = e; x->kind == E_BINOP && x->u.bin.op == op; x = x->u.bin.a)
        up[--k] = x;                    /* up[0]: the innermost, whose a is x */
    Value *v = ev(py, x, env);
    for (k = 0; v && k < n && v_truthy(v) != (op == PY_OR); k++) {
        v_decref(v);
        v = ev(py, up[k]->u.bin.b, env);
    }
    if (up != local)
        free(up);
    return v;
}

static Value *ev(Py *py, const Expr *e, const Env *env)
{
    Ctx *cx = py->cx;
    switch (e->kind) {
    case E_NAME: return name_value(py, e, env);
    case E_INT: return v_int(e->u.i);
    case E_FLOAT: return v_float(e->u.f);
    case E_STR: return v_str(e->u.str.s, e->u.str.len);
    case E_TRUE: return v_bool(true);
    case E_FALSE: return v_bool(false);
    case E_NONE: return v_none();
    case E_TUPLE: case E_LIST: case E_SET: return display(py, e, env);
    case E_CALL: return call(py, e, env);
    case E_NEG: case E_POS: {
        Value *x = ev(py, e->u.neg, env), *r = NULL;
        if (!x)
            return NULL;
        if (!v_is_number(x))
            r = cx_raise(cx, "TypeError", "bad operand type for unary %c: '%s'", e->kind == E_NEG ? '-' : '+',
                         v_typename(x));
        else if (x->type == V_FLOAT)
            r = v_float(e->kind == E_NEG ? -x->u.f : x->u.f);
        else if (e->kind == E_POS)
            r = v_int(x->u.i);
        else
            r = py_int_neg(cx, x->u.i);
        v_decref(x);
        return r;
    }
    case E_NOT: {
        Value *x = ev(py, e->u.neg, env);
        Value *r = x ? v_bool(!v_truthy(x)) : NULL;
        v_decref(x);
        return r;
    }
    case E_INVERT: {
        Value *x = ev(py, e->u.neg, env), *r = NULL;
        if (x && (x->type == V_INT || x->type == V_BOOL))
            r = v_int(~x->u.i);
        else if (x)
            r = cx_raise(cx, "TypeError", "bad operand type for unary ~: '%s'", v_typename(x));
        v_decref(x);
        return r;
    }
    case E_BINOP: {
        if (e->u.bin.op == PY_AND || e->u.bin.op == PY_OR)
            return bool_chain(py, e, env);
        Value *x = ev(py, e->u.bin.a, env);
        if (!x)
            return NULL;
        Value *y = ev(py, e->u.bin.b, env), *r = y ? py_binop(py, e->u.bin.op, x, y) : NULL;
        v_decref(x);
        v_decref(y);
        return r;
    }
    case E_COMPARE: {
        const Expr *it = e->u.cmp.items;
        Value *left = ev(py, it, env);
        for (int k = 0; left && k < e->u.cmp.n - 1; k++) {
            it = it->next;
            Value *right = ev(py, it, env);
            if (!right) {
                v_decref(left);
                return NULL;
            }
            int r = py_compare(py, e->u.cmp.ops[k], left, right);
            v_decref(left);
            left = right;
            if (r <= 0) {
                v_decref(left);
                return r < 0 ? NULL : v_bool(false);
            }
        }
        v_decref(left);
        return left ? v_bool(true) : NULL;
    }
    case E_IFEXP: {
        Value *c = ev(py, e->u.ifexp.cond, env);
        if (!c)
            return NULL;
        bool t = v_truthy(c);
        v_decref(c);
        return ev(py, t ? e->u.ifexp.a : e->u.ifexp.b, env);
    }
    case E_LAMBDA: {
        LambdaRef *l = keep(sizeof *l);
        l->py = keep(sizeof *l->py);
        *l->py = *py;
        l->lambda = e;
        l->env = env_keep(env);
        snprintf(l->name, sizeof l->name, "<lambda>");
        Value *f = v_func_new(lambda_invoke, l->name, -1, e->u.lambda.n, 0, 0, NULL);
        f->u.fn.mismatch = lambda_mismatch;
        return f;
    }
    case E_SUBSCRIPT: {
        Value *obj = ev(py, e->u.sub.obj, env);
        Value *r = obj ? subscript(py, obj, e->u.sub.index, env) : NULL;
        v_decref(obj);
        return r;
    }
    case E_ATTR:
        return cx_raise(cx, "AttributeError", "arcrun eval reads no attributes ('.%s')", e->u.attr.name);
    default:
        return cx_raise(cx, "SyntaxError", "arcrun eval cannot evaluate this");
    }
}

/* Whether e needs the walk: Python beyond literals and DSL calls. */
bool py_needed(const Expr *e)
{
    if (!e)
        return false;
    switch (e->kind) {
    case E_NAME:
        return py_builtin_index(e->u.name) >= 0 && strcmp(e->u.name, "frozenset") != 0;
    case E_LIST: case E_BINOP: case E_NOT: case E_INVERT: case E_COMPARE: case E_IFEXP: case E_LAMBDA:
    case E_SUBSCRIPT: case E_SLICE: case E_KEYWORD:
        return true;
    case E_SET:     /* a set display, but as frozenset's argument */
        return true;
    case E_TUPLE:
        for (const Expr *it = e->u.list.items; it; it = it->next)
            if (py_needed(it))
                return true;
        return false;
    case E_CALL: {
        const Expr *a = e->u.call.args;
        if (e->u.call.fn->kind == E_NAME && strcmp(e->u.call.fn->u.name, "frozenset") == 0) {
            /* a program's lowering takes frozenset of a display only: frozenset(0)
             * and frozenset(a, b) raise as CPython raises */
            if (e->u.call.nargs > 1 || (e->u.call.nargs == 1 && !ast_frozenset_literal(a, false)))
                return true;
            if (e->u.call.nargs == 1 && a->kind == E_SET) {
                for (const Expr *it = a->u.list.items; it; it = it->next)
                    if (py_needed(it))
                        return true;
                return false;
            }
        }
        if (py_needed(e->u.call.fn))
            return true;
        for (const Expr *it = a; it; it = it->next)
            if (py_needed(it))
                return true;
        return false;
    }
    case E_NEG: case E_POS:     /* a program's lowering takes number constants only */
        return true;
    default:
        return false;
    }
}

Value *py_eval(Ctx *cx, const Expr *e, bool rearc)
{
    Py py = {cx, cx->dialect, rearc};
    return ev(&py, e, NULL);
}
