"""re-arc's verifiers calling a primitive with too few arguments: CPython's
TypeError names re-arc's own parameters where its dsl.py renamed them
(branch's if_value and else_value).  rearc_missing.expected is CPython's
result with re-arc's dsl.py:
python3 tests/programs/expected.py RE_ARC_CHECKOUT tests/programs/rearc_missing.py"""
from dsl import *


def verify_rot_demo01(I: Grid) -> Grid:
    x1 = fork(branch, identity, identity)
    x2 = x1(T)
    return I


def verify_mirror_demo02(I: Grid) -> Grid:
    x1 = apply(branch, repeat(T, ONE))
    return I
