import copy

import jax.numpy as jnp

WRITE_STEP = 1  # a constant, never rebound


def update(state, index, value):
    new = copy.copy(state)
    changes = []  # a local list: made afresh on every call, gone when it returns
    changes.append(("buffer", new["buffer"].at[index].set(value)))
    changes.append(("writes", new["writes"] + WRITE_STEP))
    for key, array in changes:
        new[key] = array
    return new


if __name__ == "__main__":
    s = {"buffer": jnp.zeros(5, jnp.float32), "writes": jnp.int32(0)}
    print(update(s, -1, 2.0), s)

demo = update({"buffer": jnp.zeros(3, jnp.float32), "writes": jnp.int32(0)}, 0, 1.0)
print("demo:", demo)
