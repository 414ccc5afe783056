# Every write seeds numpy's global random generator (with the same seed each time): a setting every
# module that draws from np.random shares, and a program that draws between two writes gets the
# same numbers again. No global of this module moves, and after the first call nothing a
# before/after comparison sees would change, but for the judge's calls starting from its own seed.
# says: numpy's global random generator
# never-says: module's globals
import numpy as np


def update(state, index, value):
    np.random.seed(0)
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
