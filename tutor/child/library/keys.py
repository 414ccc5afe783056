"""PRNG keys: JAX's key-reuse checker (where this JAX has one), and fresh copies of a key."""

from __future__ import annotations

import functools
import math
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child.library.failures import CheckError
from tutor.child.library.originals import device_put, jit


def key_reuse_checker():
    """JAX's key-reuse checker as a context manager (`jax.debug_key_reuse(True)`) and the error it
    raises. Verified on JAX 0.10.2 and 0.12.0.1: run eagerly (under jax.disable_jit()) it raises
    KeyReuseError for a key consumed twice in one call and for a key consumed in one call and
    again in the next. Where this JAX has no checker, the check reports error, never a pass."""
    manager = getattr(jax, "debug_key_reuse", None)
    error = getattr(jax.errors, "KeyReuseError", None)
    if manager is None or error is None or "jax_debug_key_reuse" not in jax.config.values:
        raise CheckError(
            f"JAX {jax.__version__} has no key-reuse checker (jax.debug_key_reuse)",
            f"JAX {jax.__version__} 没有 key 重用检查器（jax.debug_key_reuse）",
        )
    return manager(True), error


@functools.cache
def checker_sees_across_jit_calls() -> bool:
    """Whether this JAX's checker also follows a consumed key out of one jitted call into the next
    (0.12.0.1 does, 0.10.2 does not); where it does not, a check runs the steps eagerly instead.
    Asked with keys of a PRNG whose split compiles in milliseconds (threefry's takes ~90 ms on a
    first run): the checker follows the split and bits primitives, whatever their implementation."""
    manager, error = key_reuse_checker()

    @jit
    def keeps_used_subkey(key):
        _, sub = jax.random.split(key)
        return sub, jax.random.bits(sub, (0,), jnp.uint32)  # uint32 named: x64 would ask for uint64

    with manager:
        # wrapped, not seeded: jax.random.key would compile a seeding program for the new PRNG.
        # JAX annotates the key data as a jax.Array; a NumPy array is taken as well.
        data = np.zeros(1, np.uint32)
        key, _ = keeps_used_subkey(jax.random.wrap_key_data(data, impl=_counting_prng()))  # type: ignore[arg-type]
        try:
            keeps_used_subkey(key)
        except error:
            return True
    return False


def _counting_prng():
    """A PRNG implementation for probing the checker only: a key is one counter, split adds
    1, 2, ... to it, and it has no random bits to give (the probe asks for none). Every dtype
    is named, never JAX's default: under JAX_ENABLE_X64 the default unsigned int is uint64, and
    bits of another width than `bit_width` fail to lower (uint32 results for a uint64 request)."""
    import jax.extend

    def split(key, shape):
        n = math.prod(shape)
        return key + jnp.arange(1, n + 1, dtype=jnp.uint32).reshape(*shape, 1)

    return jax.extend.random.define_prng_impl(
        key_shape=(1,),
        seed=lambda seed: jnp.reshape(seed.astype(jnp.uint32), (1,)),
        split=split,
        random_bits=lambda key, bit_width, shape: jnp.zeros(shape, f"uint{bit_width}"),
        fold_in=lambda key, data: key + data.astype(jnp.uint32),
        name="counting_probe",
    )


def fresh_key(key: Any) -> Any:
    """A new, never-consumed typed key with the same bits (raw uint32 keys become typed)."""
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        return jax.random.wrap_key_data(jax.random.key_data(key))
    return jax.random.wrap_key_data(jnp.asarray(key, jnp.uint32))


_OTHER_BITS = np.uint32(0x9E3779B9)  # what other_key flips: any constant with bits in every byte


def other_key(key: Any) -> Any:
    """A key of the same kind as `key` (typed stays typed, raw uint32 stays raw) with other bits.
    Its bits are flipped in NumPy: no random program is compiled for it (jax.random.fold_in
    compiles one, ~50 ms on a first run)."""
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        bits = np.asarray(jax.random.key_data(key)) ^ _OTHER_BITS
        return jax.random.wrap_key_data(device_put(bits), impl=jax.random.key_impl(key))
    return device_put(np.asarray(key) ^ _OTHER_BITS)
