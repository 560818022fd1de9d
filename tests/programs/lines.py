"""Lines as Python allows them: several statements on a line with ';', a
trailing ';', one-line def bodies, constants side by side.
tests/programs.test runs it on tasks/demo; lines.expected is CPython's
result (tests/programs/expected.py)."""
from dsl import *
from constants import *

A = ONE; B = TWO
C = add(A, B);


def turn(g): return rot180(g)


def both(g): x1 = hmirror(g); x2 = vmirror(x1); return x2


def solve_rot_demo01(I): x1 = rot90(I); return x1


def solve_mirror_demo02(I):
    x1 = both(I); x2 = turn(x1)
    x3 = upscale(x2, C);
    return x3


def program_shift(I):
    x1 = turn(I); O = both(x1); return O
