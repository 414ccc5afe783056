"""An NNX MLP with dropout; nnx.Optimizer over optax.adamw; a jitted train and eval step."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, din, dhidden, dout, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(din, dhidden, rngs=rngs)
        self.dropout = nnx.Dropout(0.2, rngs=rngs)
        self.out = nnx.Linear(dhidden, dout, rngs=rngs)

    def __call__(self, x):
        return self.out(self.dropout(nnx.relu(self.hidden(x))))


def loss_fn(model, x, y):
    logits = model(x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss


@nnx.jit
def eval_step(model, x, y):
    return jnp.mean(jnp.argmax(model(x), -1) == y)


def fit(steps, lr):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(256, 16)).astype(np.float32)
    y = (x[:, :4].sum(1) > 0).astype(np.int32)
    model = MLP(16, 32, 2, rngs=nnx.Rngs(params=0, dropout=1))
    optimizer = nnx.Optimizer(model, optax.adamw(lr), wrt=nnx.Param)
    history = []
    for step in range(steps):
        idx = rng.integers(0, 256, 32)
        model.train()
        loss = train_step(model, optimizer, x[idx], y[idx])
        history.append(loss)
        if step % 20 == 0:
            model.eval()
            print(f"step {step}: accuracy {float(eval_step(model, x, y)):.3f}")
    return model, [float(v) for v in jax.device_get(history)]
