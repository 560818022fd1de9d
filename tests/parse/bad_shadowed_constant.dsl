def solve_a(I):
    x1 = objects(I, T, F, T)
    T = first(x1)
    O = subgrid(T, I)
    return O
