def solve_paren(I):
    x1 = rot90((I)
