def solve_indent(I):
        x1 = rot90(I)
    O = x1
    return O
