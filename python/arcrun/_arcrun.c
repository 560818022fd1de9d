/* _arcrun.c -- the C side of the Python package: arcrun's values and calls
 * behind the functions of python/arcrun/__init__.py, which turn outcomes
 * into Python exceptions.  The GIL is released while arcrun computes. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "config.h"
#include "ir.h"
#include "value.h"

/* A DSL function as a Python value: its name, and CPython's repr of it. */
typedef struct {
    PyObject_HEAD
    PyObject *name;
} FunctionObject;

static PyObject *function_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<function %U>", ((FunctionObject *)self)->name);
}

static void function_dealloc(PyObject *self)
{
    Py_XDECREF(((FunctionObject *)self)->name);
    PyTypeObject *t = Py_TYPE(self);
    t->tp_free(self);
    Py_DECREF(t);
}

static PyType_Slot function_slots[] = {
    {Py_tp_repr, function_repr},
    {Py_tp_dealloc, function_dealloc},
    {Py_tp_doc, "A DSL function returned by arcrun (its repr is CPython's)."},
    {0, NULL},
};
static PyType_Spec function_spec = {
    "arcrun.Function", sizeof(FunctionObject), 0, Py_TPFLAGS_DEFAULT, function_slots,
};
static PyObject *function_type;

/* v as the Python value it stands for; a frozenset's iteration order is
 * then the host CPython's own, since it builds the set. */
static PyObject *to_python(const Value *v)
{
    switch (v->type) {
    case V_NONE: Py_RETURN_NONE;
    case V_BOOL: return PyBool_FromLong((long)v->u.i);
    case V_INT: return PyLong_FromLongLong((long long)v->u.i);
    case V_FLOAT: return PyFloat_FromDouble(v->u.f);
    case V_STR: return PyUnicode_FromStringAndSize(v->u.str.s, (Py_ssize_t)v->u.str.len);
    case V_TUPLE: case V_FSET: {
        size_t n = v_len(v);
        PyObject *t = PyTuple_New((Py_ssize_t)n);
        for (size_t i = 0; t && i < n; i++) {
            PyObject *item = to_python(v_items(v)[i]);
            if (!item) {
                Py_DECREF(t);
                return NULL;
            }
            PyTuple_SET_ITEM(t, (Py_ssize_t)i, item);
        }
        if (!t || v->type == V_TUPLE)
            return t;
        PyObject *s = PyFrozenSet_New(t);
        Py_DECREF(t);
        return s;
    }
    case V_FUNC: {
        FunctionObject *f = PyObject_New(FunctionObject, (PyTypeObject *)function_type);
        if (f && !(f->name = PyUnicode_FromString(v->u.fn.name))) {
            Py_DECREF(f);
            return NULL;
        }
        return (PyObject *)f;
    }
    }
    return PyErr_Format(PyExc_SystemError, "arcrun: a value of unknown type %d", v->type);
}

/* _eval(expr, dialect) -> ("ok", value) | ("compile", located message) |
 * ("raise", exception name, message) */
static PyObject *py_eval(PyObject *self, PyObject *args)
{
    const char *expr, *dialect = "arc-dsl";
    if (!PyArg_ParseTuple(args, "s|z", &expr, &dialect))
        return NULL;
    if (!dialect)
        dialect = "arc-dsl";
    bool rearc = strcmp(dialect, "re-arc") == 0;
    int d = rearc || strcmp(dialect, "arc-dsl") == 0 ? DIALECT_ARCDSL
          : strcmp(dialect, "tokpidjin") == 0 ? DIALECT_TOKPIDJIN : -1;
    if (d < 0)
        return PyErr_Format(PyExc_ValueError, "unknown dialect %R (arc-dsl, re-arc or tokpidjin)",
                            PyTuple_GET_ITEM(args, 1));
    Ctx cx;
    ctx_init(&cx, d);
    char *err = NULL;
    Value *v;
    Py_BEGIN_ALLOW_THREADS
    v = ir_eval_expr_as(&cx, expr, rearc, &err);
    Py_END_ALLOW_THREADS
    PyObject *r;
    if (v) {
        PyObject *py = to_python(v);
        r = py ? Py_BuildValue("(sN)", "ok", py) : NULL;
    } else if (err) {
        r = Py_BuildValue("(ss)", "compile", err);
    } else {
        /* "TypeError: message" as CPython prints it */
        const char *colon = strstr(cx.errmsg, ": ");
        size_t n = colon ? (size_t)(colon - cx.errmsg) : strlen(cx.errmsg);
        r = Py_BuildValue("(ss#s)", "raise", cx.errmsg, (Py_ssize_t)n, colon ? colon + 2 : "");
    }
    free(err);
    v_decref(v);
    return r;
}

static PyObject *py_version(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString(PACKAGE_VERSION);
}

static PyMethodDef methods[] = {
    {"_eval", py_eval, METH_VARARGS, "_eval(expr, dialect=None): (outcome, ...)"},
    {"version", py_version, METH_NOARGS, "arcrun's version"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "arcrun._arcrun", "arcrun's C core.", -1, methods,
};

PyMODINIT_FUNC PyInit__arcrun(void)
{
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    function_type = PyType_FromSpec(&function_spec);
    if (!function_type || PyModule_AddObject(m, "Function", function_type) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(function_type);
    return m;
}
