# says: _journal
# Wrong: every write is journaled to a temporary file opened at import: the file grows with each
# call, a history kept outside the state.
import tempfile

import jax.numpy as jnp

_journal = tempfile.TemporaryFile("w+")


def update(state, index, value):
    _journal.write("write\n")
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
