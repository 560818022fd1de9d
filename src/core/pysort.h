/* pysort.h -- Python's list.sort(key=..., reverse=...), comparison for
 * comparison where it can be observed.  Ties keep their order (stable), and
 * below 64 items the leading run and binary insertion follow CPython's
 * timsort exactly, so keys that are only partially ordered (frozensets,
 * compared by inclusion) come out as in CPython. */
#ifndef ARC_PYSORT_H
#define ARC_PYSORT_H

#include "value.h"

/* A sort entry: its key and its value.  Ownership is the caller's. */
typedef struct { Value *key, *val; } SortItem;

/* Sort v[0..n) by key with `<` (v_richcmp); reverse as list.sort does it
 * (reversed before and after a stable sort).  0, or -1 with the exception
 * raised in cx; on error every entry is still in v exactly once. */
int py_sort(Ctx *cx, SortItem *v, size_t n, bool reverse);

#endif
