# `from dsl import *` binds no constant: ZERO is looked up, and raises
# NameError, when its line runs; the alias turn is bound.
from dsl import *
from dsl import rot90 as turn


def unimported(I):
    x1 = turn(I)
    x2 = replace(x1, ZERO, 5)
    return x2
