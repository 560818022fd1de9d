/* pysort.c -- list.sort for the DSLs' sorted/order/ranks (see pysort.h). */
#include "pysort.h"

#include <stdlib.h>
#include <string.h>

static void reverse_items(SortItem *lo, SortItem *hi)
{
    for (--hi; lo < hi; lo++, hi--) {
        SortItem t = *lo;
        *lo = *hi;
        *hi = t;
    }
}

/* CPython's list.sort below its minrun of 64: the leading run (a strictly
 * descending one reversed), then binary insertion. */
static int sort_small(Ctx *cx, SortItem *v, size_t n)
{
    if (n < 2)
        return 0;
    int lt = v_richcmp(cx, v[1].key, v[0].key, CMP_LT);
    if (lt < 0)
        return -1;
    size_t run = 2;
    if (lt) {
        while (run < n && (lt = v_richcmp(cx, v[run].key, v[run - 1].key, CMP_LT)) == 1)
            run++;
        if (lt < 0)
            return -1;
        reverse_items(v, v + run);
    } else {
        while (run < n && (lt = v_richcmp(cx, v[run].key, v[run - 1].key, CMP_LT)) == 0)
            run++;
        if (lt < 0)
            return -1;
    }
    for (size_t s = run; s < n; s++) {
        SortItem pivot = v[s];
        size_t l = 0, r = s;
        do {
            size_t p = l + ((r - l) >> 1);
            int c = v_richcmp(cx, pivot.key, v[p].key, CMP_LT);
            if (c < 0)
                return -1;
            if (c)
                r = p;
            else
                l = p + 1;
        } while (l < r);
        memmove(v + l + 1, v + l, (s - l) * sizeof *v);
        v[l] = pivot;
    }
    return 0;
}

/* Longer lists: a stable merge sort (timsort's result for total orders). */
static int sort_merge(Ctx *cx, SortItem *v, SortItem *tmp, size_t n)
{
    if (n < 64)
        return sort_small(cx, v, n);
    size_t h = n / 2;
    if (sort_merge(cx, v, tmp, h) < 0 || sort_merge(cx, v + h, tmp, n - h) < 0)
        return -1;
    memcpy(tmp, v, h * sizeof *v);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        int c = v_richcmp(cx, v[j].key, tmp[i].key, CMP_LT);
        if (c < 0) {
            memcpy(v + k, tmp + i, (h - i) * sizeof *v);   /* every entry once */
            return -1;
        }
        v[k++] = c ? v[j++] : tmp[i++];
    }
    while (i < h)
        v[k++] = tmp[i++];
    return 0;
}

int py_sort(Ctx *cx, SortItem *v, size_t n, bool reverse)
{
    if (reverse)
        reverse_items(v, v + n);
    SortItem *tmp = NULL;
    if (n >= 64 && !(tmp = malloc((n / 2 + 1) * sizeof *tmp))) {
        cx_raise(cx, "MemoryError", "out of memory");
        return -1;
    }
    int rc = sort_merge(cx, v, tmp, n);
    free(tmp);
    if (rc == 0 && reverse)
        reverse_items(v, v + n);
    return rc;
}
