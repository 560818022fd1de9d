def solve_unknown(I):
    x1 = rot9(I)
    return x1
