def solve_outer(I):
    def inner(x):
        return x
    return I
