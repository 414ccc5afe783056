# says: history (closed over by gradient_descent_step)
import jax


def _make_step():
    history = []

    def gradient_descent_step(params, learning_rate):
        grad = jax.grad(lambda x: x**2)(params)
        history.append(learning_rate)
        return params - learning_rate * grad

    return gradient_descent_step


gradient_descent_step = _make_step()
