def solve_crlf(I):
    x1 = rot90(I)  # comment

    O = hmirror(
        x1)
    return O
