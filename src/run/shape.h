/* shape.h -- a program's output shape, known before it runs.
 *
 * Search mode (--all-pairs) only asks whether a program reproduces every
 * expected output.  Many arc-dsl programs end in paint(I, ...), rot90(...),
 * upscale(..., 3), hconcat(I, ...) or canvas(c, (3, 3)), whose result has a
 * shape that follows from the input's alone; such a program cannot solve a
 * task any of whose expected outputs has another shape, and the pair is
 * ruled out without running it.
 *
 * The analysis is an abstract run over the statements: a slot is a grid
 * whose height and width are a*H + b*W + c in the input's height H and
 * width W, an int of that form, or a pair of them; a fixed set of
 * primitives (shape.c) maps these exactly, any other statement gives
 * "unknown".  A grid is tracked only while its sides are at least 1 for
 * every input of 1..30 x 1..30, so each rule holds as written in dsl.py.
 *
 * ARCRUN_NO_SHAPE_RULE=1 runs the ruled-out pairs anyway (bench/allpairs.sh
 * times both); ARCRUN_SHAPE_CHECK=1 compares every finished output of a
 * program with a known shape against the prediction (tests/search.test). */
#ifndef ARC_SHAPE_H
#define ARC_SHAPE_H

#include "exec.h"
#include "ir.h"

typedef struct { int a, b, c; } ShapeLin;      /* a*H + b*W + c */
typedef struct {
    bool known;
    ShapeLin rows, cols;
} OutShape;

OutShape shape_of_output(const IrProgram *p);
/* The rows and columns s gives for an input grid of h rows and w
 * columns (s->known). */
void shape_predict(const OutShape *s, int h, int w, int *rows, int *cols);
/* Whether a program whose output has shape s cannot solve t: some sample
 * with an expected output has another shape. */
bool shape_rules_out(const OutShape *s, const Task *t);

#endif
