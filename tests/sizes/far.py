# Sizes computed from a program's ints, far past any grid: each must raise
# (MemoryError, or OverflowError past 64 bits) before anything is made.
from dsl import *
from constants import *

FAR = 4611686018427387904    # 2 ** 62


def far_vsplit(I):
    O = vsplit(I, FAR)
    return O


def far_hsplit(I):
    O = hsplit(I, FAR)
    return O


def far_upscale(I):
    O = upscale(I, FAR)
    return O


def far_vupscale(I):
    O = vupscale(I, FAR)
    return O


def far_canvas(I):
    x1 = astuple(FAR, THREE)
    O = canvas(ZERO, x1)
    return O


def far_canvas_rows(I):
    x1 = astuple(FAR, THREE)
    O = canvas(x1, x1)
    return O


def far_upscale_empty_rows(I):
    x1 = crop(I, ORIGIN, UNITY)
    x2 = hupscale(x1, ZERO)
    O = upscale(x2, FAR)
    return O


def far_outbox(I):
    x1 = astuple(FAR, FAR)
    x2 = initset(ORIGIN)
    x3 = insert(x1, x2)
    O = outbox(x3)
    return O


def far_inbox(I):
    x1 = astuple(FAR, FAR)
    x2 = initset(ORIGIN)
    x3 = insert(x1, x2)
    O = inbox(x3)
    return O


def far_connect(I):
    x1 = invert(FAR)
    x2 = astuple(x1, x1)
    x3 = astuple(FAR, FAR)
    O = connect(x2, x3)
    return O


def far_object_upscale(I):
    x1 = asobject(I)
    O = upscale(x1, FAR)
    return O
