# sig: a=float32[?], b=float32[?], TILE=16
import cuda.tile as ct


# A chain of helpers, each nesting 20 runtime ifs around the call of the next (tabs keep the
# file small): 1,100 nested regions. 19,800 overflowed the stack; 4,000 took 7 s and 1 GB.
def h0(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h1(t)
	return t

def h1(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h2(t)
	return t

def h2(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h3(t)
	return t

def h3(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h4(t)
	return t

def h4(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h5(t)
	return t

def h5(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h6(t)
	return t

def h6(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h7(t)
	return t

def h7(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h8(t)
	return t

def h8(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h9(t)
	return t

def h9(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h10(t)
	return t

def h10(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h11(t)
	return t

def h11(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h12(t)
	return t

def h12(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h13(t)
	return t

def h13(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h14(t)
	return t

def h14(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h15(t)
	return t

def h15(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h16(t)
	return t

def h16(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h17(t)
	return t

def h17(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h18(t)
	return t

def h18(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h19(t)
	return t

def h19(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h20(t)
	return t

def h20(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h21(t)
	return t

def h21(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h22(t)
	return t

def h22(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h23(t)
	return t

def h23(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h24(t)
	return t

def h24(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h25(t)
	return t

def h25(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h26(t)
	return t

def h26(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h27(t)
	return t

def h27(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h28(t)
	return t

def h28(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h29(t)
	return t

def h29(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h30(t)
	return t

def h30(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h31(t)
	return t

def h31(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h32(t)
	return t

def h32(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h33(t)
	return t

def h33(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h34(t)
	return t

def h34(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h35(t)
	return t

def h35(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h36(t)
	return t

def h36(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h37(t)
	return t

def h37(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h38(t)
	return t

def h38(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h39(t)
	return t

def h39(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h40(t)
	return t

def h40(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h41(t)
	return t

def h41(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h42(t)
	return t

def h42(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h43(t)
	return t

def h43(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h44(t)
	return t

def h44(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h45(t)
	return t

def h45(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h46(t)
	return t

def h46(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h47(t)
	return t

def h47(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h48(t)
	return t

def h48(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h49(t)
	return t

def h49(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h50(t)
	return t

def h50(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h51(t)
	return t

def h51(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h52(t)
	return t

def h52(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h53(t)
	return t

def h53(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h54(t)
	return t

def h54(t):
	if ct.bid(0) > 0:
		if ct.bid(0) > 1:
			if ct.bid(0) > 2:
				if ct.bid(0) > 3:
					if ct.bid(0) > 4:
						if ct.bid(0) > 5:
							if ct.bid(0) > 6:
								if ct.bid(0) > 7:
									if ct.bid(0) > 8:
										if ct.bid(0) > 9:
											if ct.bid(0) > 10:
												if ct.bid(0) > 11:
													if ct.bid(0) > 12:
														if ct.bid(0) > 13:
															if ct.bid(0) > 14:
																if ct.bid(0) > 15:
																	if ct.bid(0) > 16:
																		if ct.bid(0) > 17:
																			if ct.bid(0) > 18:
																				if ct.bid(0) > 19:
																					t = h55(t)
	return t

def h55(t):
	return t + 1.0


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    x = h0(x)
    ct.store(b, index=(bid,), tile=x)
