def solve_reassign(I):
    x1 = rot90(I)
    x2 = hmirror(x1)
    x1 = vmirror(x2)
    return x1
