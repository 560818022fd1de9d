"""Solvers as people write them: helper defs with several parameters that
call each other and primitives, module constants (plain, and DSL
expressions), annotations, docstrings, and a __main__ block.
tests/programs.test runs it on tasks/demo; helpers.expected is CPython's
result (tests/programs/expected.py)."""
from dsl import *
from constants import *

BG = ZERO
SCALE = TWO
PAIR = astuple(ONE, TWO)
MIRROR = compose(vmirror, hmirror)
LATER = increment(SCALE)


def tile2(grid: Grid, times: Integer) -> Grid:
    """Upscale, then turn by MIRROR."""
    x1 = upscale(grid, times)
    return MIRROR(x1)


def corners(grid):
    h, w = shape(grid)
    return astuple(h, w), PAIR


def count_bg(grid):
    x1 = ofcolor(grid, BG)
    return size(x1)


def twice(f, x):
    return f(f(x))


def fold(g, n):
    x1 = equality(n, ZERO)
    x2 = branch(x1, identity, rot90)
    return x2(g)


def deep(n):
    return deep(n)


def solve_rot_demo01(I):
    x1 = tile2(I, SCALE)
    x2, x3 = corners(x1)
    x4 = count_bg(I)
    x5 = canvas(x4, x2)
    O = hconcat(x5, x1)
    return O


def solve_mirror_demo02(I):
    x1 = tile2(I)
    return x1


def solve_recolor_demo03(I):
    x1 = tile2(I, ONE, TWO)
    return x1


def solve_crop_demo04(I):
    x1 = twice(rot90, I)
    x2 = fold(x1, LATER)
    x3 = apply(count_bg, astuple(I, x2))
    O = astuple(x3, x2)
    return O


def program_recurse(I):
    x1 = deep(I)
    return x1


def program(I):
    x1 = rbind(tile2, LATER)
    x2 = x1(I)
    O = corners(x2)
    return O


if __name__ == "__main__":
    import json
    for name in ["rot_demo01"]:
        print(name)
