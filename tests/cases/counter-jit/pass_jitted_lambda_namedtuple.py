from typing import NamedTuple

import jax


class StepOut(NamedTuple):
    new_count: jax.Array
    increment: jax.Array


def _next(count):
    return count + 1


update_counter = jax.jit(lambda count, increment: StepOut(_next(count), increment))
