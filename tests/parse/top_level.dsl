from dsl import *
BG = ZERO
rot90(BG)
x1 = rot90(I)
x2, x3 = 1, 2
x4 = first(())
