def solve_a(I):
    x1 = identity('\x4')
    return x1
