def solve_eof(I):
    x1 = rot90(I)
    return x1,
    x2 = (