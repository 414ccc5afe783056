# says: were deleted
# says: donate
from functools import partial

import jax


@partial(jax.jit, donate_argnums=0)  # "saves memory", but the caller's state dies with it
def update(state, index, value):
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
