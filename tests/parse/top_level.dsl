from dsl import *
x1 = rot90(I)
