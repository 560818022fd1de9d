def solve_many(I):
    x1 = rot90(I)
    x2 = hmirorr(x1)
    x3 = fill(x2, ONE, [x1])
    x4 = vmirror(x99)
    return x4
