def solve_op(I):
    x1 = size(I) | 2
    return x1
