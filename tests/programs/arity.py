"""Primitives called with the wrong number of arguments where the program
writes the call: CPython loads the file and raises TypeError only when an
instance reaches the line, so the file's other programs run.  arcrun
warns when it loads the file and raises as CPython does.
A def no program calls, of two parameters, is no program: it loads with a
warning and never runs, as no harness calls it.
tests/programs.test runs it on tasks/demo; arity.expected is CPython's
result (tests/programs/expected.py)."""
from dsl import *
from constants import *


def program_too_many(I):
    x1 = rot90(I, I)
    return x1


def program_too_few(I):
    x1 = crop(I)
    return x1


def program_nested(I):
    x1 = vmirror(shift(I))
    return x1


def program_sound(I):
    x1 = rot90(I)
    return x1


def program_second_line(I):
    x1 = astuple(ONE, TWO)
    x2 = height(I, x1)
    x3 = rot180(I)
    return x3


def program_many(I):
    x1 = rot90(I, I, I, I, I, I, I, I, I, I)
    return x1


def program_many_nested(I):
    x1 = vmirror(rot90(I), rot90(I, I), I, I, I, I, I, I, I, I, I)
    return x1


def unused_pair(a, b):
    x1 = combine(a, b)
    return x1
