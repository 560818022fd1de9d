"""Programs whose parameters do not fit the harness's call solve(I):
CPython loads the file, and each call raises TypeError, so the file's
other programs run.  arcrun warns when it loads the file and raises as
CPython does, with CPython's words.
tests/programs.test runs it on tasks/demo; params.expected is CPython's
result (tests/programs/expected.py)."""
from dsl import *
from constants import *


def solve_rot_demo01(I, J):
    O = hconcat(I, J)
    return O


def solve_mirror_demo02():
    O = vmirror(canvas(ZERO, UNITY))
    return O


def solve_crop_demo04(I, J, K, L):
    O = crop(I, J, K)
    return O


def solve_recolor_demo03(I):
    O = rot90(I)
    return O
