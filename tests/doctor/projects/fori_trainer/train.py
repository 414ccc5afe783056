"""A whole epoch as one jitted lax.fori_loop: minibatches drawn inside the loop from a key in
the carry, split on every iteration; a linear model with a noise-robust Huber loss."""
import jax
import jax.numpy as jnp

N, D, BATCH = 2048, 16, 64


def make_problem(key):
    kw, kx, kn = jax.random.split(key, 3)
    w_true = jax.random.normal(kw, (D,))
    x = jax.random.normal(kx, (N, D))
    y = x @ w_true + 0.3 * jax.random.cauchy(kn, (N,))
    return x, y, w_true


def huber(r, delta=1.0):
    a = jnp.abs(r)
    return jnp.where(a < delta, 0.5 * r**2, delta * (a - 0.5 * delta))


def loss_fn(w, xb, yb):
    return jnp.mean(huber(xb @ w - yb))


@jax.jit
def run_epoch(w, key, x, y, lr):
    def body(i, carry):
        w, key = carry
        key, sub = jax.random.split(key)
        idx = jax.random.randint(sub, (BATCH,), 0, N)
        g = jax.grad(loss_fn)(w, x[idx], y[idx])
        return w - lr * g, key

    return jax.lax.fori_loop(0, N // BATCH, body, (w, key))


def main(epochs=8):
    x, y, w_true = make_problem(jax.random.PRNGKey(0))
    w = jnp.zeros(D)
    key = jax.random.PRNGKey(1)
    lr = jnp.float32(0.1)
    for epoch in range(epochs):
        w, key = run_epoch(w, key, x, y, lr)
        lr = lr * 0.8
    err = jnp.linalg.norm(w - w_true) / jnp.linalg.norm(w_true)
    print(f"relative error {float(err):.3f}")


if __name__ == "__main__":
    main()
