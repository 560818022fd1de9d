from dsl import *

def solve(I):
    O = rot90(I)
    return O
