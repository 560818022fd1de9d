# The default demo: one arc-dsl solver per task in this directory,
# named solve_<task file name>.
from dsl import *
from constants import *


def solve_rot_demo01(I):
    O = rot90(I)
    return O


def solve_mirror_demo02(I):
    x1 = vmirror(I)
    O = hconcat(I, x1)
    return O


def solve_recolor_demo03(I):
    x1 = replace(I, ONE, FOUR)
    O = upscale(x1, TWO)
    return O


def solve_crop_demo04(I):
    x1 = ofcolor(I, TWO)
    O = subgrid(x1, I)
    return O
