# How re-arc writes its verifiers: annotated parameters and returns, and
# docstrings.  The annotations are read and set aside, as CPython keeps them
# in __annotations__ and nothing reads them (tests/cli.test runs this on the
# demo tasks: the same results as tasks/demo/demo.dsl's first two solvers).
"""A module docstring."""
from dsl import *
from constants import *


def solve_rot_demo01(I: Grid) -> Grid:
    """rot90, annotated."""
    O = rot90(I)
    return O


def solve_mirror_demo02(
    I: Grid,
) -> Grid:
    x1 = vmirror(I)
    O = hconcat(I, x1)
    return O
