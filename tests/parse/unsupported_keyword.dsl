def solve_if(I):
    if I:
        return I
    return I
