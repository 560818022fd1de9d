# A program whose parameters do not fit solve(I): CPython loads the file
# and each call raises TypeError.  A warning, and the file runs.
def solve_007bbfb7(I, J):
    O = hconcat(I, J)
    return O
