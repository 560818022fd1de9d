def solve_arity(I):
    x1 = rot90(I, I)
    return x1
