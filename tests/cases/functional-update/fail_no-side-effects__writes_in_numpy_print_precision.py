# Each write counted in numpy's print options (np.set_printoptions(precision=...)): a setting the
# whole process shares, compared by no witness.
# says: print options
import numpy as np


def update(state, index, value):
    np.set_printoptions(precision=np.get_printoptions()["precision"] + 1)
    new_buffer = state["buffer"].at[index].set(value)
    return {"buffer": new_buffer, "writes": state["writes"] + 1}
