def solve_bad(I):
    x1 = objects(I, T, F, T
    O = fill(I, ONE, x1)
    return O
