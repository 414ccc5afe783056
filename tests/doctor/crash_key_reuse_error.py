"""The key-reuse checker switched on by the learner, and a key drawn from twice."""
import jax

with jax.debug_key_reuse(True):
    key = jax.random.key(0)
    noise = jax.random.normal(key, (3,))
    dropout = jax.random.bernoulli(key, 0.5, (3,))  # finding: crash
    print(noise, dropout)
