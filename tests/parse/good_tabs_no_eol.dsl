def solve_tabs(I):
	x1 = rot90(I)

	O = vmirror(x1)
	return O