def solve_a(I):
    s = []
    x1 = rot90(I)
    return 2, s
