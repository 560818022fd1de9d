from dsl import *
from constants import *


def solve_rotate(I):
    O = rot90(I)
    return O


def solve_recolor(I):
    x1 = objects(I, T, F, T)
    x2 = sizefilter(x1, ONE)
    x3 = merge(x2)
    O = fill(I, EIGHT, x3)
    return O


def solve_frame(I):
    # comments anywhere
    x1 = asindices(I)   # trailing comment
    x2 = box(x1)

    x3 = fill(I, TWO, x2)
    O = hconcat(x3, x3)
    return O
