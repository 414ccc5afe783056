"""Which JAX transformations ran (tutor.child.witness), in-process with real JAX: a task's "built
with jax.vmap" or "with jax.grad" is judged by what runs, whatever the file's text says."""

from __future__ import annotations

import types

import pytest

from tutor.child import witness

pytestmark = pytest.mark.slow  # JAX in-process

witness.install()

import jax  # noqa: E402 - after install, as the learner's file is loaded after it
import jax.numpy as jnp  # noqa: E402


def learner(source: str) -> types.ModuleType:
    module = types.ModuleType("learner_under_test")
    exec(compile(source, "learner_under_test.py", "exec"), module.__dict__)
    return module


def ran_in(source: str, *args) -> set[str]:
    module = learner(source)
    with witness.ran() as ran:
        module.f(*args)
    return ran


def test_install_is_idempotent_and_keeps_the_results():
    witness.install()
    assert jax.grad(lambda x: x**2)(3.0) == 6.0
    assert jax.vmap(lambda x: x + 1)(jnp.arange(3.0)).tolist() == [1.0, 2.0, 3.0]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import jax\n@jax.grad\ndef g(x):\n    return x ** 2\ndef f(x):\n    return x - 0.1 * g(x)\n", {"grad"}),
        (
            "from jax import value_and_grad\ndef f(x):\n    return value_and_grad(lambda v: v ** 2)(x)\n",
            {"value_and_grad"},
        ),
        ("import jax\ndef f(x):\n    return jax.vjp(lambda v: v ** 2, x)[0]\n", {"vjp"}),
        ("import jax\nstep = jax.jit(jax.vmap(lambda x: x * 2))\ndef f(xs):\n    return step(xs)\n", {"vmap"}),
    ],
)
def test_what_ran_is_seen_also_through_jit_and_from_imports(source, expected):
    arg = jnp.arange(3.0) if "vmap" in expected else jnp.float32(3.0)
    assert ran_in(source, arg) == expected
    assert ran_in(source, arg) == expected  # again: the jit cache does not hide it


@pytest.mark.parametrize(
    "source",
    [
        "import jax\ndef f(x):\n    return x - 0.1 * 2 * x\nif True:\n    jax.grad(lambda v: v ** 2)(1.0)\n",
        "import jax\ndef f(xs):\n    return jax.lax.map(lambda x: x * 2, xs)\n",
        "import jax\nunused = jax.vmap(lambda x: x)\ndef f(xs):\n    return xs * 2\n",
    ],
)
def test_a_transformation_that_did_not_run_in_the_call_is_not_seen(source):
    assert ran_in(source, jnp.arange(3.0)) == set()


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "import random\nimport jax\n@jax.jit\ndef f(x):\n    random.seed(0)\n    return x[random.randrange(3)]\n",
            ["random.randrange", "random.seed"],
        ),
        (
            "from random import sample\nimport jax.numpy as jnp\ndef f(x):\n    return x[jnp.array(sample(range(3), 2))]\n",
            ["random.sample"],
        ),
        (
            "import numpy as np\nimport jax\n@jax.jit\ndef f(x):\n    return x * np.random.default_rng(1).random(3)\n",
            ["numpy.random.default_rng"],
        ),
        (
            "from numpy.random import seed, permutation\ndef f(x):\n    seed(0)\n    return x[permutation(3)]\n",
            ["numpy.random.permutation", "numpy.random.seed"],
        ),
    ],
)
def test_draws_outside_jax_are_seen_in_a_fresh_trace_and_through_from_imports(source, expected):
    module = learner(source)
    fresh = jax.jit(getattr(module.f, "__wrapped__", module.f))  # a new trace, jit left on
    with witness.ran(eager=False) as ran:
        fresh(jnp.arange(3.0))
    assert witness.outside_jax(ran) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "import numpy as np\nimport jax\n@jax.jit\ndef f(x):\n    return x[np.random.RandomState(0).permutation(3)]\n",
            ["numpy.random.RandomState(seed)"],
        ),
        (
            "from numpy.random import Generator, PCG64\ndef f(x):\n    return x * Generator(PCG64(7)).random(3)\n",
            ["numpy.random.PCG64(seed)"],
        ),
        (
            "import numpy as np\ndef f(x):\n    return x * np.random.Generator(np.random.Philox(key=3)).random(3)\n",
            ["numpy.random.Philox(seed)"],
        ),
        (
            "import numpy as np\ndef f(x):\n    rs = np.random.RandomState()\n    rs.seed(4)\n    return x * rs.rand(3)\n",
            ["numpy.random.RandomState(seed)"],
        ),
        ("import numpy as np\ndef f(x):\n    return x * np.random.Generator(np.random.SFC64()).random(3)\n", []),
        ("import numpy as np\ndef f(x):\n    return x * np.random.RandomState().rand(3)\n", []),
    ],
)
def test_numpy_generator_classes_made_with_a_seed_are_seen(source, expected):
    module = learner(source)
    with witness.ran(eager=False) as ran:
        module.f(jnp.arange(3.0))
    assert witness.outside_jax(ran) == expected


def test_numpy_generator_classes_keep_their_types_results_and_pickles():
    import pickle

    import numpy as np

    made_before = (np.random.mtrand._rand._bit_generator, np.random.default_rng(0).bit_generator)
    assert isinstance(made_before[0], np.random.MT19937) and isinstance(made_before[1], np.random.PCG64)
    assert issubclass(np.random.MT19937, np.random.BitGenerator)
    assert np.random.RandomState(0).rand() == pytest.approx(0.5488135039273248, abs=0)
    assert np.random.Generator(np.random.PCG64(0)).random() == np.random.default_rng(0).random()
    rng = np.random.Generator(np.random.PCG64(1))
    again = pickle.loads(pickle.dumps(rng))
    assert again.random() == rng.random()
    legacy = np.random.RandomState(2)
    assert pickle.loads(pickle.dumps(legacy)).rand() == legacy.rand()


def test_draws_outside_the_call_and_jax_draws_are_not_seen():
    module = learner(
        "import numpy as np\nimport jax\nSCALE = np.random.default_rng(0).random()\n"
        "TABLE = np.random.RandomState(1).permutation(3) + np.random.Generator(np.random.PCG64(2)).random(3)\n"
        "def f(x):\n    return x * SCALE * TABLE + jax.random.normal(jax.random.key(0), x.shape)\n"
    )
    with witness.ran(eager=False) as ran:
        module.f(jnp.arange(3.0))
    assert witness.outside_jax(ran) == []
