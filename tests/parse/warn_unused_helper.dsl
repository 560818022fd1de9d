# A def of two parameters that nothing calls is no program (a program
# takes the input grid): a warning, and the file runs without it.
def unused_pair(a, b):
    x1 = combine(a, b)
    return x1


def solve_pairs(I):
    x1 = rot90(I)
    return x1
