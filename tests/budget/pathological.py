# Budget test: one ordinary solver and one whose product of the 900 cells
# of a 30x30 canvas with themselves holds 810,000 pairs, read in order
# (first), so CPython's table of all of them is laid out: work charged
# for every pair, and far more than a millisecond however fast the
# product itself is made.
def solve_rot_demo01(I):
    O = rot90(I)
    return O


def solve_recolor_demo03(I):
    x1 = astuple(30, 30)
    x2 = canvas(ZERO, x1)
    x3 = asindices(x2)
    x4 = product(x3, x3)
    O = first(x4)
    return O
