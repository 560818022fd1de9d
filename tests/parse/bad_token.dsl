def solve_tok(I):
    x1 = crop(I, ORIGIN, 3x3)
    return x1
