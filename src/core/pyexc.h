/* pyexc.h -- Python's built-in exception classes, as an `except` clause
 * sees them: which names are classes and which class catches which; and
 * CPython's words for a call with the wrong number of arguments. */
#ifndef ARC_PYEXC_H
#define ARC_PYEXC_H

#include <stdbool.h>
#include <stddef.h>

/* Whether name is a built-in exception class. */
bool pyexc_is_class(const char *name);
/* Whether `except base` catches an exception of class cls (cls itself or a
 * subclass); both are class names, cls's as its message starts. */
bool pyexc_catches(const char *base, const char *cls, size_t cls_len);
/* The TypeError's message when fname, which takes the n parameters
 * params[i] (of length lens[i]; NUL-terminated where lens is NULL), is
 * called with argc positional arguments, argc != n: "f() missing 2
 * required positional arguments: 'y' and 'z'", or "f() takes 1
 * positional argument but 2 were given". */
void pyexc_arity_words(char *buf, size_t size, const char *fname, int n,
                       const char *const *params, const int *lens, int argc);

#endif
