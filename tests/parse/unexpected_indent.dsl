def solve_indent(I):
    x1 = rot90(I)
      O = hmirror(x1)
    return O
