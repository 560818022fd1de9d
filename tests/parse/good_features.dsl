"""A module docstring."""
import dsl
from dsl import *
from constants import (ONE,
                       TWO)
from dsl import rot90 as turn


def solve_literals(I):
    """Literals, nesting and aliases."""
    x1 = frozenset({(1, (0, 0)), (2, (0, 1))})
    x2 = frozenset()
    x3 = -1
    x4 = (x3, "double", 'single', True, False, None, (), (5,))
    x5 = rbind(add, x3)
    x6 = x5(ONE)
    x7 = rbind(add, x3)(TWO)
    x8 = add(add(1, 2),
             add(3,
                 x6))
    x9 = paint(I, x1); x10 = size(x2)
    a, b = astuple(x8, x10)
    c, d = a, b
    x11 = insert(x4, \
        x2)
    return x11
