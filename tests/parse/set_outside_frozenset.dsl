def solve_set(I):
    x1 = insert(1, {2, 3})
    return x1
