"""PureJaxRL's way of running seeds and a learning-rate sweep: make_train(config) returns the
whole training as one function (lax.scan over updates, each a scan over environment steps),
vmapped over seeds and jitted once, then called once per learning rate, which goes in as an
argument. Progress is printed from inside the compiled run with jax.debug.print, as the
examples do: one compiled call per learning rate, however many lines it prints."""

import jax
import jax.numpy as jnp

CONFIG = {"NUM_SEEDS": 3, "NUM_ARMS": 4, "NUM_STEPS": 16, "NUM_UPDATES": 25, "LR": 0.2, "PRINT_EVERY": 5}


def make_train(config):
    means = jnp.linspace(0.0, 1.0, config["NUM_ARMS"])

    def pull(key, arm):
        return means[arm] + 0.1 * jax.random.normal(key)

    def train(rng, lr):
        logits = jnp.zeros(config["NUM_ARMS"])

        def update(runner, i):
            logits, rng = runner
            rng, act_rng, reward_rng = jax.random.split(rng, 3)
            arms = jax.random.categorical(act_rng, logits, shape=(config["NUM_STEPS"],))
            rewards = jax.vmap(pull)(jax.random.split(reward_rng, config["NUM_STEPS"]), arms)

            def loss_fn(logits):
                logp = jax.nn.log_softmax(logits)[arms]
                return -jnp.mean(logp * (rewards - rewards.mean()))

            logits = logits - lr * jax.grad(loss_fn)(logits)
            jax.lax.cond(
                i % config["PRINT_EVERY"] == 0,
                lambda: jax.debug.print("update {i}: mean reward {r:.3f}", i=i, r=rewards.mean()),
                lambda: None,
            )
            return (logits, rng), rewards.mean()

        (logits, _), returns = jax.lax.scan(update, (logits, rng), jnp.arange(config["NUM_UPDATES"]))
        return {"logits": logits, "returns": returns}

    return train


def main():
    rngs = jax.random.split(jax.random.PRNGKey(0), CONFIG["NUM_SEEDS"])
    train_jit = jax.jit(jax.vmap(make_train(CONFIG), in_axes=(0, None)))
    for lr in (0.2, 0.05):
        out = train_jit(rngs, lr)
        print(f"lr {lr}: final mean reward {float(out['returns'][:, -1].mean()):.3f}")


if __name__ == "__main__":
    main()
