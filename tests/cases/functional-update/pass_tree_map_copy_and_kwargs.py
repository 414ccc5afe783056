import jax


def update(state, index, value, *, mode="set"):
    new = jax.tree.map(lambda leaf: leaf, state)  # a new dict holding the same (immutable) arrays
    setter = getattr(new["buffer"].at[index], mode)
    new["buffer"] = setter(value)
    new["writes"] = new["writes"] + 1
    return new
