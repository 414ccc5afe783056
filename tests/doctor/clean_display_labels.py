"""Labels for 25 plot titles made from one jitted prediction, one str() each: a display loop
that runs no step and waits for nothing worth saving, not a per-step sync."""

import jax
import jax.numpy as jnp


@jax.jit
def predict(w, x):
    return jnp.argmax(x @ w, axis=-1)


w = jax.random.normal(jax.random.PRNGKey(0), (8, 10))
x = jax.random.normal(jax.random.PRNGKey(1), (25, 8))
pred = predict(w, x)
titles = []
for i in range(25):
    titles.append("predicted " + str(pred[i]))
print(titles[:3])
