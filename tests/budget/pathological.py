# Budget test: one ordinary solver and one whose product of the 900 cells
# of a 30x30 canvas with themselves builds 810,000 pairs.
def solve_rot_demo01(I):
    O = rot90(I)
    return O


def solve_recolor_demo03(I):
    x1 = astuple(30, 30)
    x2 = canvas(ZERO, x1)
    x3 = asindices(x2)
    x4 = product(x3, x3)
    O = size(x4)
    return O
