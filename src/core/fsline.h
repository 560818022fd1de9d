/* fsline.h -- frozenset((i0 + k * di, j0 + k * dj) for k in range(n)), as
 * connect and shoot make it, and recolor's cells over it, built only when
 * something reads them.
 *
 * A line's points are distinct, so its CPython layout follows from their
 * hashes and order alone; so do its own hash, its length and its bounding
 * box, which are set at once.  Two lines are equal exactly when their
 * canonical forms are, so dedup in a set of lines (prapply(connect, ...)
 * gives every segment twice) compares no points, and vline/hline answer
 * from the box.  Anything that reads the points builds the line, once
 * (fsrecipe.h).
 */
#ifndef ARC_FSLINE_H
#define ARC_FSLINE_H

#include "value.h"

/* Shorter lines are built at once: nothing to gain. */
#define FS_LINE_LAZY_MIN 2

/* The line of n >= FS_LINE_LAZY_MIN points from (i0, j0), in canonical
 * form: di is 0 or 1, and dj is 1 when di is 0, so one set has one form. */
Value *fs_line(int64_t i0, int64_t j0, int di, int dj, size_t n);

/* Whether v is a line from fs_line, built or not. */
bool fs_is_line(const Value *v);

/* Whether recipe v is a line or a coloured line: its equality (the
 * fsrecipe eq hook) compares ints only, so equal ones read the same. */
bool fs_line_exact(const Value *v);

/* For a line or coloured line v (a recipe) whose points lie in the
 * interned span: 1 where bit k of `bits` is set for each of its arena
 * keys k (fsrecipe.h), 0 where one is not, found without listing them or
 * making their tuples; -1 for any other v. */
int fs_line_keys_marked(const Value *v, const uint64_t *bits);

/* Whether v is a line of places (not a coloured one) not laid out yet
 * whose points leave the interned span, with *t its first point and step:
 * a far merge (fsfar.h) lists its points' codes itself. */
typedef struct {
    int64_t i0, j0;
    int di, dj;
} FsLineSteps;
bool fs_line_past_span(const Value *v, FsLineSteps *t);

/* recolor(c, line): frozenset((c, p) for p in line) for an int c (not a
 * bool), as lazy as the line: hash and box at once, cells when read, and
 * the line itself not held. */
Value *fs_line_recolor(Value *c, Value *line);

#endif
