"""PureJaxRL's shape: make_train(config) returns one function that runs the whole training as
lax.scan over updates, each update a scan over environment steps, jitted once and called once.
A toy bandit environment with a linear softmax policy and REINFORCE; metrics go out through
jax.debug.callback, printed per finished episode as PureJaxRL's examples do."""

import jax
import jax.numpy as jnp

CONFIG = {"NUM_ENVS": 4, "NUM_STEPS": 8, "NUM_UPDATES": 30, "LR": 0.1, "DEBUG": True}


def env_step(key, state, action):
    reward = jnp.where(action == state % 3, 1.0, 0.0)
    state = (state + jax.random.randint(key, (), 1, 3)) % 6
    return state, reward, state == 0


def make_train(config):
    def policy(params, obs):
        return jax.nn.log_softmax(params[obs])

    def train(rng):
        params = jnp.zeros((6, 3))
        rng, reset_rng = jax.random.split(rng)
        states = jax.random.randint(reset_rng, (config["NUM_ENVS"],), 0, 6)

        def update_step(runner, _):
            params, states, rng = runner

            def env_step_all(carry, _):
                states, rng = carry
                rng, act_rng, step_rng = jax.random.split(rng, 3)
                logits = jax.vmap(policy, (None, 0))(params, states)
                actions = jax.random.categorical(act_rng, logits)
                keys = jax.random.split(step_rng, config["NUM_ENVS"])
                new_states, rewards, dones = jax.vmap(env_step)(keys, states, actions)
                return (new_states, rng), (states, actions, rewards, dones)

            (states, rng), (obs, actions, rewards, dones) = jax.lax.scan(
                env_step_all, (states, rng), None, config["NUM_STEPS"]
            )

            def loss_fn(p):
                logp = jax.vmap(jax.vmap(policy, (None, 0)), (None, 0))(p, obs)
                chosen = jnp.take_along_axis(logp, actions[..., None], -1)[..., 0]
                return -jnp.mean(chosen * (rewards - rewards.mean()))

            grads = jax.grad(loss_fn)(params)
            params = params - config["LR"] * grads
            metric = {"returned_episode_returns": rewards.sum(0), "returned_episode": dones.any(0)}
            if config["DEBUG"]:

                def callback(info):
                    returns = info["returned_episode_returns"][info["returned_episode"]]
                    for t in range(len(returns)):
                        print(f"episodic return={returns[t]}")

                jax.debug.callback(callback, metric)
            return (params, states, rng), metric

        runner, metrics = jax.lax.scan(update_step, (params, states, rng), None, config["NUM_UPDATES"])
        return {"runner_state": runner, "metrics": metrics}

    return train


if __name__ == "__main__":
    train_jit = jax.jit(make_train(CONFIG))
    out = train_jit(jax.random.PRNGKey(30))
    print("mean return", float(out["metrics"]["returned_episode_returns"].mean()))
