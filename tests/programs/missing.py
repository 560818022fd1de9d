"""Primitives called with too few arguments through apply, rapply and a
fork: CPython's TypeError names the parameters that are missing.
tests/programs.test runs it on tasks/demo; missing.expected is CPython's
result (tests/programs/expected.py)."""
from dsl import *
from constants import *


def program_one_missing(I):
    x1 = fork(fill, identity, identity)
    x2 = x1(I)
    return x2


def program_two_missing(I):
    x1 = apply(crop, repeat(I, ONE))
    return I


def program_three_missing(I):
    x1 = rapply(frozenset({objects}), I)
    return I
