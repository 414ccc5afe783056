import jax
from jax import lax


class Quadratic:
    @staticmethod
    def value(x):
        return lax.integer_pow(x, 2)

    def step(self, params, learning_rate):
        slope = jax.grad(self.value)(params)
        return lax.sub(params, lax.mul(lax.convert_element_type(learning_rate, params.dtype), slope))


_problem = Quadratic()
gradient_descent_step = _problem.step
