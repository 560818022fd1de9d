def solve_tab(I):
	x1 = rot90(I)
	x2 = shoot(x1, [x1])
	return x2
