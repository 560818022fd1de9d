"""Verifiers as re-arc writes them (tests/programs.test): annotated, their
constants from `from dsl import *` alone, and re-arc's own argmax, argmin
and occurrences where they differ from arc-dsl's (an empty container, an
empty object, locations).  rearc.expected is CPython's result with re-arc's
dsl.py: python3 tests/programs/expected.py RE_ARC_CHECKOUT tests/programs/rearc.py"""
from dsl import *


def verify_rot_demo01(I: Grid) -> Grid:
    x1 = objects(I, T, F, T)
    x2 = sizefilter(x1, 100)
    x3 = argmax(x2, size)
    x4 = argmin(x2, size)
    x5 = equality(x3, x4)
    x6 = rot90(I)
    O = branch(x5, x6, I)
    return O


def verify_mirror_demo02(I: Grid) -> Grid:
    x1 = occurrences(I, frozenset())
    x2 = size(x1)
    x3 = vmirror(I)
    x4 = hconcat(I, x3)
    O = astuple(x2, x4)
    return O


def verify_recolor_demo03(I: Grid) -> Grid:
    x1 = asindices(I)
    O = occurrences(I, x1)
    return O


def verify_crop_demo04(I: Grid) -> Grid:
    x1 = objects(I, T, F, T)
    x2 = argmax(x1, size)
    x3 = occurrences(I, x2)
    x4 = ofcolor(I, TWO)
    x5 = subgrid(x4, I)
    O = astuple(x3, x5)
    return O
