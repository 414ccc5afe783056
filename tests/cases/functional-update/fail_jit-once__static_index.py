# says: traced 4 times over 5 calls, expected 1
# says: (static)
from functools import partial

import jax


@partial(jax.jit, static_argnames="index")  # "the index must be known to compile"
def update(state, index, value):
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
