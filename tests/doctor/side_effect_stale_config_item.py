"""A sweep in PureJaxRL's style: make_train(config) closes over a config dict and is jitted once;
the sweep then sets the dict's "LR" (through the global name, not the closure's) before each
run, and the compiled run keeps the rate it was traced with."""
import jax
import jax.numpy as jnp

CONFIG = {"LR": 0.1, "STEPS": 20}


def make_train(config):
    def train(w):
        def update(w, _):
            return w - config["LR"] * 2.0 * (w - 3.0), None

        return jax.lax.scan(update, w, None, config["STEPS"])[0]

    return train


train_jit = jax.jit(make_train(CONFIG))
for lr in (0.1, 0.01, 0.3):
    CONFIG["LR"] = lr  # finding: side-effect
    print(lr, float(train_jit(jnp.zeros(()))))
