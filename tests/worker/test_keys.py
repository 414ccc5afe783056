"""PRNG keys (tutor/child/library/keys.py), in-process with real JAX."""

from __future__ import annotations

import jax
import pytest

from tutor.child.library.keys import checker_sees_across_jit_calls, key_reuse_checker

pytestmark = pytest.mark.slow  # JAX in-process


def test_the_cheap_probe_answers_as_threefry_keys_do():
    # The probe asks with a PRNG of its own, to compile in milliseconds; what key-once needs to
    # know is what the checker does with the keys learners use.
    manager, error = key_reuse_checker()

    @jax.jit
    def keeps_used_subkey(key):
        _, sub = jax.random.split(key)
        return sub, jax.random.bits(sub)

    with manager:
        key, _ = keeps_used_subkey(jax.random.key(0))
        try:
            keeps_used_subkey(key)
            seen = False
        except error:
            seen = True
    assert checker_sees_across_jit_calls() is seen
