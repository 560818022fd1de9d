def solve_b94a9452(I):
    x1 = objects(I, F, F, T)
    x2 = +first(x1)
    O = subgrid(x2, I)
    return O
