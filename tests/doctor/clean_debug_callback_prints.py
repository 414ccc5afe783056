"""PureJaxRL-style: one jitted training run (a scan), whose body hands its metrics to a host
callback that prints one line per finished episode. The callback runs inside one compiled call,
with its operands already on the host: no loop of the script waits on it."""
import jax
import jax.numpy as jnp


def callback(info):
    returns, steps = jnp.asarray(info[0]), jnp.asarray(info[1])
    for t in range(len(steps)):
        print(f"global step={steps[t]}, episodic return={returns[t]:.3f}")


def train(w):
    def body(w, i):
        w = w * 0.99 + 0.01
        jax.debug.callback(callback, (jnp.full(30, w), jnp.arange(30) + i * 30))
        return w, None

    w, _ = jax.lax.scan(body, w, jnp.arange(5))
    return w


w = jax.jit(train)(jnp.float32(1.0))
print(float(w))
