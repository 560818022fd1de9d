# A program whose parameters do not fit solve(I): CPython loads the file
# and each call raises TypeError.  A warning, and the file runs.
def solve_007bbfb7(I, J):
    O = hconcat(I, J)
    return O


# Called by another def, it is a helper there; the harness's own call of
# it, which CPython would make and fail, is not made.
def solve_0520fde7(I, J):
    O = vconcat(I, J)
    return O


def solve_05269061(I):
    O = solve_0520fde7(I, I)
    return O
