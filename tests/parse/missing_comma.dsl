def solve_comma(I):
    x1 = fill(I, ONE ORIGIN)
    return x1
