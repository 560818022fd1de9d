def solve_a(I):
    # café
    O = rot90(I)
    return O
