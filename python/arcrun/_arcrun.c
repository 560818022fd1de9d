/* _arcrun.c -- the C side of the Python package: arcrun's values and calls
 * behind the functions of python/arcrun/__init__.py, which turn outcomes
 * into Python exceptions.  The GIL is released while arcrun computes. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "config.h"
#include "driver.h"
#include "exec.h"
#include "gpu/backend_gpu.h"
#include "ir.h"
#include "pairing.h"
#include "taskread.h"
#include "value.h"
#include "vgrid.h"

#include <stdatomic.h>
#include <stdio.h>

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

static PyObject *function_from_name;     /* _function(name), for pickling */

static PyObject *function_reduce(PyObject *self, PyObject *unused)
{
    return Py_BuildValue("(O(O))", function_from_name, ((FunctionObject *)self)->name);
}

static PyObject *function_eq(PyObject *a, PyObject *b, int op)
{
    if (Py_TYPE(a) != Py_TYPE(b) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    return PyObject_RichCompare(((FunctionObject *)a)->name, ((FunctionObject *)b)->name, op);
}

static Py_hash_t function_hash(PyObject *self)
{
    return PyObject_Hash(((FunctionObject *)self)->name);
}

static PyMethodDef function_methods[] = {
    {"__reduce__", function_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot function_slots[] = {
    {Py_tp_repr, function_repr},
    {Py_tp_methods, function_methods},
    {Py_tp_richcompare, function_eq},
    {Py_tp_hash, function_hash},
    {Py_tp_dealloc, function_dealloc},
    {Py_tp_doc, "A DSL function returned by arcrun (its repr is CPython's)."},
    {0, NULL},
};
static PyType_Spec function_spec = {
    "arcrun.Function", sizeof(FunctionObject), 0, Py_TPFLAGS_DEFAULT, function_slots,
};
static PyObject *function_type;

enum { CONVERT_DEPTH_MAX = 20000 };
static _Thread_local int convert_depth;

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
        if (vg_is(v)) {     /* a byte grid: its rows from its bytes, not made */
            size_t h = v->u.tup.len, w = vg_w(v);
            PyObject *g = PyTuple_New((Py_ssize_t)h);
            for (size_t i = 0; g && i < h; i++) {
                PyObject *r = PyTuple_New((Py_ssize_t)w);
                for (size_t j = 0; r && j < w; j++) {
                    PyObject *x = PyLong_FromLong(vg_cells(v)[i * w + j]);
                    if (!x) {
                        Py_CLEAR(r);
                        break;
                    }
                    PyTuple_SET_ITEM(r, (Py_ssize_t)j, x);
                }
                if (!r) {
                    Py_CLEAR(g);
                    break;
                }
                PyTuple_SET_ITEM(g, (Py_ssize_t)i, r);
            }
            return g;
        }
        if (v->flags & V_FLAG_RANGE)
            return PyObject_CallFunction((PyObject *)&PyRange_Type, "LLL", (long long)v_titems(v)[0]->u.i,
                                         (long long)v_titems(v)[1]->u.i, (long long)v_titems(v)[2]->u.i);
        /* a value nested deeper than this (a program of as many lines
         * builds one) raises RecursionError, not C's stack overflowing */
        if (convert_depth >= CONVERT_DEPTH_MAX)
            return PyErr_Format(PyExc_RecursionError,
                                "an arcrun value nested more than %d deep", CONVERT_DEPTH_MAX);
        convert_depth++;
        size_t n = v_len(v);
        PyObject *t = PyTuple_New((Py_ssize_t)n);
        for (size_t i = 0; t && i < n; i++) {
            PyObject *item = to_python(v_items(v)[i]);
            if (!item) {
                Py_CLEAR(t);
                break;
            }
            PyTuple_SET_ITEM(t, (Py_ssize_t)i, item);
        }
        convert_depth--;
        if (t && (v->flags & V_FLAG_LIST)) {
            PyObject *l = PySequence_List(t);
            Py_DECREF(t);
            return l;
        }
        if (!t || v->type == V_TUPLE)
            return t;
        PyObject *s = v->flags & V_FLAG_SET ? PySet_New(t) : PyFrozenSet_New(t);
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
    const char *expr, *dialect = NULL;
    if (!PyArg_ParseTuple(args, "s|z", &expr, &dialect))
        return NULL;
    int d = dialect ? ir_dialect_parse(dialect) : DIALECT_ARCDSL;
    if (d < 0)
        return PyErr_Format(PyExc_ValueError, "unknown dialect %R (arc-dsl, re-arc or tokpidjin)",
                            PyTuple_GET_ITEM(args, 1));
    bool rearc = d == IR_DIALECT_REARC;
    if (rearc)
        d = DIALECT_ARCDSL;
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

/* ---- programs and tasks, held by capsules --------------------------------- */

static void module_free(PyObject *cap) { ir_free(PyCapsule_GetPointer(cap, "arcrun.programs")); }
static void tasks_free(PyObject *cap)
{
    TaskSet *ts = PyCapsule_GetPointer(cap, "arcrun.tasks");
    taskset_free(ts);
    free(ts);
}

/* _compile(source, dialect, filename) -> ("ok", capsule, [names], dialect) |
 * ("compile", located messages) */
static PyObject *py_compile(PyObject *self, PyObject *args)
{
    const char *src, *dialect, *filename;
    if (!PyArg_ParseTuple(args, "szs", &src, &dialect, &filename))
        return NULL;
    int d = dialect ? ir_dialect_parse(dialect) : -1;
    if (dialect && d < 0)
        return PyErr_Format(PyExc_ValueError, "unknown dialect %s (arc-dsl, re-arc or tokpidjin)", dialect);
    char *err = NULL;
    IrModule *m;
    Py_BEGIN_ALLOW_THREADS
    m = ir_load_string(filename, src, d, &err);
    Py_END_ALLOW_THREADS
    if (!m) {
        PyObject *r = Py_BuildValue("(ss)", "compile", err ? err : "error");
        free(err);
        return r;
    }
    PyObject *names = PyList_New(0);
    for (int i = 0; names && i < m->nprogs; i++)
        if (pairing_runs_alone(NULL, &m->progs[i])) {
            PyObject *n = PyUnicode_FromString(m->progs[i].name);
            if (!n || PyList_Append(names, n) < 0) {
                Py_XDECREF(n);
                Py_CLEAR(names);
            }
            Py_XDECREF(n);
        }
    PyObject *cap = names ? PyCapsule_New(m, "arcrun.programs", module_free) : NULL;
    if (!cap) {
        ir_free(m);
        Py_XDECREF(names);
        return NULL;
    }
    return Py_BuildValue("(sNNs)", "ok", cap, names, ir_dialect_name(m));
}

static PyObject *py_function(PyObject *self, PyObject *args)
{
    PyObject *name;
    if (!PyArg_ParseTuple(args, "U", &name))
        return NULL;
    FunctionObject *f = PyObject_New(FunctionObject, (PyTypeObject *)function_type);
    if (f) {
        Py_INCREF(name);
        f->name = name;
    }
    return (PyObject *)f;
}

/* _load_tasks(path, ids) -> ("ok", capsule, [ids]) | ("error", message);
 * ids: None, or the task ids to keep */
static PyObject *py_load_tasks(PyObject *self, PyObject *args)
{
    const char *path;
    PyObject *keep = Py_None;
    if (!PyArg_ParseTuple(args, "s|O", &path, &keep))
        return NULL;
    TaskSet *ts = calloc(1, sizeof *ts);
    char err[1024];
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = taskset_load(path, NULL, ts, err, sizeof err);
    Py_END_ALLOW_THREADS
    if (rc != 0) {
        free(ts);
        return Py_BuildValue("(ss)", "error", err);
    }
    if (keep != Py_None) {
        Py_ssize_t n = PySequence_Size(keep);
        char **want = calloc((size_t)(n > 0 ? n : 1), sizeof *want);
        for (Py_ssize_t i = 0; want && i < n; i++) {
            PyObject *o = PySequence_GetItem(keep, i);
            want[i] = o && PyUnicode_Check(o) ? (char *)PyUnicode_AsUTF8(o) : NULL;
            Py_XDECREF(o);      /* the ids live in keep, which the caller holds */
            if (!want[i]) {
                free(want);
                taskset_free(ts);
                free(ts);
                return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "task ids are str");
            }
        }
        const char *missing = NULL;
        rc = taskset_select(ts, want, (int)n, &missing);
        free(want);
        if (rc != 0) {
            PyObject *r = PyUnicode_FromFormat("no task '%s' in %s", missing, path);
            taskset_free(ts);
            free(ts);
            return r ? Py_BuildValue("(sN)", "error", r) : NULL;
        }
    }
    PyObject *ids = PyList_New(ts->ntasks);   /* (id, train count, test count) */
    for (int i = 0; ids && i < ts->ntasks; i++)
        PyList_SET_ITEM(ids, i, Py_BuildValue("(sii)", ts->tasks[i].id, ts->tasks[i].ntrain, ts->tasks[i].ntest));
    PyObject *cap = ids ? PyCapsule_New(ts, "arcrun.tasks", tasks_free) : NULL;
    if (!cap) {
        taskset_free(ts);
        free(ts);
        Py_XDECREF(ids);
        return NULL;
    }
    return Py_BuildValue("(sNN)", "ok", cap, ids);
}

/* ---- running ------------------------------------------------------------------ */

typedef struct {
    PyObject *sink;          /* called with (program, task, sample, output, error, correct, C) */
    atomic_int *interrupted;
    bool failed;             /* the sink or a conversion raised: the run stops */
} Collect;

/* A batt call's records, as CPython's batt returns them: (o, s), lists of
 * tuples. */
static PyObject *batt_records(const Instance *in)
{
    PyObject *lists[2];
    for (int k = 0; k < 2; k++) {
        lists[k] = PyList_New(in->nrecords[k]);
        for (int i = 0; lists[k] && i < in->nrecords[k]; i++) {
            PyObject *r = to_python(in->records[k][i]);
            if (!r) {
                Py_CLEAR(lists[k]);
                break;
            }
            PyList_SET_ITEM(lists[k], i, r);
        }
    }
    if (!lists[0] || !lists[1]) {
        Py_XDECREF(lists[0]);
        Py_XDECREF(lists[1]);
        return NULL;
    }
    return Py_BuildValue("(NN)", lists[1], lists[0]);
}

/* Each finished instance, converted now: its result may hold the task's
 * grids, which go when the task closes. */
static void on_result(const Instance *in, int ok, void *arg)
{
    Collect *c = arg;
    PyGILState_STATE g = PyGILState_Ensure();
    char name[32];
    bool batt = in->prog->dialect == DIALECT_TOKPIDJIN;
    PyObject *out = in->status != INST_DONE ? (Py_INCREF(Py_None), Py_None)
                  : batt ? batt_records(in)
                  : in->result ? to_python(in->result) : (Py_INCREF(Py_None), Py_None);
    PyObject *row = out ? Py_BuildValue("(sss" "N" "s" "Nz)", in->prog->name, in->task->id,
                                        sample_name(in->task, in->sample, name, sizeof name), out,
                                        in->status == INST_DONE ? NULL : in->error ? in->error : "error",
                                        ok < 0 ? (Py_INCREF(Py_None), Py_None) : PyBool_FromLong(ok),
                                        batt && in->c_is_output ? "O" : NULL)
                        : NULL;
    PyObject *called = row ? PyObject_CallOneArg(c->sink, row) : NULL;
    Py_XDECREF(called);
    if (!called || PyErr_CheckSignals() < 0) {
        c->failed = true;
        atomic_store_explicit(c->interrupted, 1, memory_order_relaxed);
    }
    Py_XDECREF(row);
    PyGILState_Release(g);
}

/* The run going on stops at its next step when this is set (_interrupt:
 * Ctrl-C in the thread that reads the results). */
static atomic_int interrupted;

static PyObject *py_interrupt(PyObject *self, PyObject *unused)
{
    interrupted = 1;
    Py_RETURN_NONE;
}

/* _run(programs, tasks, all_pairs, jobs, backend, budget, timeout, sink) ->
 * interrupted: each result goes to sink as its instance ends */
static PyObject *py_run(PyObject *self, PyObject *args)
{
    PyObject *pcap, *tcap, *sink;
    int all_pairs, jobs;
    const char *backend;
    long long budget;
    double timeout;
    if (!PyArg_ParseTuple(args, "OOpisLdO", &pcap, &tcap, &all_pairs, &jobs, &backend, &budget, &timeout,
                          &sink))
        return NULL;
    IrModule *m = PyCapsule_GetPointer(pcap, "arcrun.programs");
    TaskSet *ts = PyCapsule_GetPointer(tcap, "arcrun.tasks");
    if (!m || !ts)
        return NULL;
    int mode = backend_mode_parse(backend);
    if (mode < 0)
        return PyErr_Format(PyExc_ValueError, "unknown backend %s (cpu, cuda or auto)", backend);
    /* each run sets the backend's mode: a 'cpu' run after a 'cuda' one
     * must not go on using the device */
    static bool gpu_registered;
    if (!gpu_registered) {
        backend_register(&backend_gpu);
        gpu_registered = true;
    }
    GpuOptions gopt = {.mode = (BackendMode)mode, .log = stderr, .jobs = jobs};
    if (backend_gpu_setup(&gopt) != 0)
        return PyErr_Format(PyExc_RuntimeError, "the GPU backend could not start");
    interrupted = 0;
    Collect c = {sink, &interrupted, false};
    FILE *devnull = fopen("/dev/null", "w");
    if (!devnull)
        return PyErr_SetFromErrno(PyExc_OSError);
    RunOptions ro = {
        .format = REPORT_TEXT, .quiet = 1, .jobs = jobs, .all_pairs = all_pairs,
        .work_limit = budget >= 0 ? (uint64_t)budget : all_pairs ? 5000000 : 100000000,
        .time_limit = timeout, .interrupted = &interrupted,
        .on_result = on_result, .on_result_arg = &c,
    };
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = report_run(m, ts, &ro, devnull);
    Py_END_ALLOW_THREADS
    fclose(devnull);
    if (c.failed && PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_KeyboardInterrupt))
        return NULL;
    bool stopped = rc < 0 || c.failed;
    PyErr_Clear();
    return PyBool_FromLong(stopped);
}

static PyObject *py_version(PyObject *self, PyObject *unused)
{
    return PyUnicode_FromString(PACKAGE_VERSION);
}

static PyMethodDef methods[] = {
    {"_eval", py_eval, METH_VARARGS, "_eval(expr, dialect=None): (outcome, ...)"},
    {"version", py_version, METH_NOARGS, "arcrun's version"},
    {"_compile", py_compile, METH_VARARGS, "_compile(source, dialect, filename)"},
    {"_load_tasks", py_load_tasks, METH_VARARGS, "_load_tasks(path, ids=None)"},
    {"_function", py_function, METH_VARARGS, "_function(name): a Function (unpickling)"},
    {"_interrupt", py_interrupt, METH_NOARGS, "_interrupt(): stop the run going on"},
    {"_run", py_run, METH_VARARGS, "_run(programs, tasks, all_pairs, jobs, backend, budget, timeout)"},
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
    function_from_name = PyObject_GetAttrString(m, "_function");
    return m;
}
