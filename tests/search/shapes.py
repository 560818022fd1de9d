# Search-mode test of the output-shape rule (src/run/shape.h) on tasks/demo:
# each program's output shape follows from its input's, except the last's.
# Pairs whose expected outputs have another shape are not run: keep 4 of
# the 4 demo tasks, flip 3 (not rot_demo01), wide 3 (not mirror_demo02),
# canvas 4, unknown 0; 14 in all.
def solve_keep(I):
    O = replace(I, ONE, TWO)
    return O


def solve_flip(I):
    O = rot90(I)
    return O


def solve_wide(I):
    x1 = vmirror(I)
    O = hconcat(I, x1)
    return O


def solve_canvas(I):
    x1 = astuple(THREE, THREE)
    O = canvas(ZERO, x1)
    return O


def solve_unknown(I):
    x1 = objects(I, T, F, T)
    x2 = first(x1)
    O = subgrid(x2, I)
    return O
