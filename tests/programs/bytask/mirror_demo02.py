from dsl import *

def helper(I):
    return vmirror(I)

def solve(I):
    x1 = helper(I)
    O = hconcat(I, x1)
    return O
