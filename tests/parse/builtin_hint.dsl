from dsl import *


def solve_x(I):
    x1 = len(I)
    x2 = max(x1, 3)
    O = sorted(x2)
    return O
