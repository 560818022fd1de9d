/* pyexc.c -- the built-in exception hierarchy (CPython 3.11), as far as
 * DSL code can raise or name it. */
#include "pyexc.h"

#include <stdio.h>
#include <string.h>

static const struct { const char *cls, *parent; } tree[] = {
    {"BaseException", NULL},
    {"Exception", "BaseException"},
    {"KeyboardInterrupt", "BaseException"}, {"SystemExit", "BaseException"},
    {"GeneratorExit", "BaseException"},
    {"TypeError", "Exception"}, {"ValueError", "Exception"}, {"AttributeError", "Exception"},
    {"LookupError", "Exception"}, {"IndexError", "LookupError"}, {"KeyError", "LookupError"},
    {"ArithmeticError", "Exception"}, {"ZeroDivisionError", "ArithmeticError"},
    {"OverflowError", "ArithmeticError"}, {"FloatingPointError", "ArithmeticError"},
    {"NameError", "Exception"}, {"UnboundLocalError", "NameError"},
    {"RuntimeError", "Exception"}, {"RecursionError", "RuntimeError"},
    {"NotImplementedError", "RuntimeError"},
    {"StopIteration", "Exception"}, {"MemoryError", "Exception"},
    {"AssertionError", "Exception"}, {"SystemError", "Exception"}, {"BufferError", "Exception"},
    {"EOFError", "Exception"}, {"ImportError", "Exception"}, {"ModuleNotFoundError", "ImportError"},
    {"OSError", "Exception"}, {"TimeoutError", "OSError"},
    {"UnicodeError", "ValueError"},
};

static const char *parent_of(const char *cls, size_t len)
{
    for (size_t i = 0; i < sizeof tree / sizeof tree[0]; i++)
        if (strlen(tree[i].cls) == len && memcmp(tree[i].cls, cls, len) == 0)
            return tree[i].parent;
    return NULL;
}

bool pyexc_is_class(const char *name)
{
    for (size_t i = 0; i < sizeof tree / sizeof tree[0]; i++)
        if (strcmp(tree[i].cls, name) == 0)
            return true;
    return false;
}

bool pyexc_catches(const char *base, const char *cls, size_t cls_len)
{
    while (cls) {
        if (strlen(base) == cls_len && memcmp(base, cls, cls_len) == 0)
            return true;
        cls = parent_of(cls, cls_len);
        cls_len = cls ? strlen(cls) : 0;
    }
    return false;
}

void pyexc_arity_words(char *buf, size_t size, const char *fname, int n,
                       const char *const *params, const int *lens, int argc)
{
    if (argc > n) {
        snprintf(buf, size, "%s() takes %d positional argument%s but %d %s given", fname, n,
                 n == 1 ? "" : "s", argc, argc == 1 ? "was" : "were");
        return;
    }
    char names[256] = "";
    size_t len = 0;
    int k = n - argc;
    for (int i = argc; i < n && len < sizeof names; i++) {
        const char *sep = i == argc ? "" : k == 2 ? " and " : i == n - 1 ? ", and " : ", ";
        int w = lens ? lens[i] : (int)strlen(params[i]);
        len += (size_t)snprintf(names + len, sizeof names - len, "%s'%.*s'", sep, w, params[i]);
    }
    snprintf(buf, size, "%s() missing %d required positional argument%s: %s", fname, k,
             k == 1 ? "" : "s", names);
}
