"""PureJaxRL-style: a whole training run in one jitted function. A softmax policy on a 4-armed
Gaussian bandit, REINFORCE with a running baseline, batched environments with vmap, the update
loop a lax.scan, and progress reported from inside the compiled run with jax.debug.callback."""

import argparse

import jax
import jax.numpy as jnp

ARM_MEANS = jnp.array([0.1, 0.5, 0.2, 0.9])


def env_step(key, action):
    return ARM_MEANS[action] + 0.3 * jax.random.normal(key)


def report(update, mean_return, entropy):
    print(f"update {int(update):4d}  return {float(mean_return):.3f}  entropy {float(entropy):.3f}")


def make_train(num_envs, num_updates, lr):
    def train(key):
        def update_step(carry, update):
            logits, baseline, key = carry
            key, act_key, env_key = jax.random.split(key, 3)
            actions = jax.random.categorical(act_key, logits, shape=(num_envs,))
            rewards = jax.vmap(env_step)(jax.random.split(env_key, num_envs), actions)

            def loss_fn(logits):
                logp = jax.nn.log_softmax(logits)[actions]
                return -jnp.mean(logp * (rewards - baseline))

            grads = jax.grad(loss_fn)(logits)
            logits = logits - lr * grads
            baseline = 0.9 * baseline + 0.1 * rewards.mean()
            probs = jax.nn.softmax(logits)
            entropy = -jnp.sum(probs * jnp.log(probs))
            jax.debug.callback(report, update, rewards.mean(), entropy)
            return (logits, baseline, key), rewards.mean()

        carry = (jnp.zeros(4), jnp.float32(0.0), key)
        (logits, _, _), returns = jax.lax.scan(update_step, carry, jnp.arange(num_updates))
        return logits, returns

    return train


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--updates", type=int, default=150)
    parser.add_argument("--lr", type=float, default=0.5)
    args = parser.parse_args()
    train = jax.jit(make_train(args.envs, args.updates, args.lr))
    logits, returns = train(jax.random.key(0))
    print("final policy", jax.nn.softmax(logits))
    print("mean return, last 20 updates", float(returns[-20:].mean()))


if __name__ == "__main__":
    main()
