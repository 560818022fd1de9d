/* pyexc.h -- Python's built-in exception classes, as an `except` clause
 * sees them: which names are classes and which class catches which. */
#ifndef ARC_PYEXC_H
#define ARC_PYEXC_H

#include <stdbool.h>
#include <stddef.h>

/* Whether name is a built-in exception class. */
bool pyexc_is_class(const char *name);
/* Whether `except base` catches an exception of class cls (cls itself or a
 * subclass); both are class names, cls's as its message starts. */
bool pyexc_catches(const char *base, const char *cls, size_t cls_len);

#endif
