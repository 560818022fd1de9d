# --submission --all-pairs on tasks/demo (tests/submission.test):
# rot90_a and rot90_b solve rot_demo01's train pairs and agree on its test
# input; seen_shapes solves them too but draws a blank canvas for the test
# input's unseen shape; mirror_only solves no train pair of it.  So
# rot_demo01 gets attempt_1 = rot90 (two votes), attempt_2 = the canvas
# (one), and mirror_demo02 gets mirror_only's output alone.
from dsl import *
from constants import *

SEEN = frozenset({(3, 3), (2, 4), (3, 2)})


def seen_shapes(I):
    x1 = contained(shape(I), SEEN)
    x2 = rot90(I)
    x3 = canvas(FIVE, UNITY)
    O = branch(x1, x2, x3)
    return O


def rot90_a(I):
    O = rot90(I)
    return O


def rot90_b(I):
    x1 = rot180(I)
    O = rot270(x1)
    return O


def mirror_only(I):
    x1 = vmirror(I)
    O = hconcat(I, x1)
    return O
