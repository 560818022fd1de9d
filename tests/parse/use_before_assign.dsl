def solve_order(I):
    x2 = hmirror(x1)
    x1 = rot90(I)
    return x2
