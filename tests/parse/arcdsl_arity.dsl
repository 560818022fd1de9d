def solve_007bbfb7(I, J):
    O = hconcat(I, J)
    return O
