"""State the whole process keeps outside the learner's module (issue 53, family 1), in-process with
real JAX: a count kept in os.environ, builtins, __main__, a module made at run time, a ContextVar, a
weakref dictionary or a cached zero-argument function's object is named by its place, and reading
those places (or importing a library lazily) is not reported. So is a count added to a library's
module or class, numpy's global generator, jax.config and a file in the temporary folder."""

from __future__ import annotations

import builtins
import os
import sys
import types

import pytest

from tutor.child.library import outside
from tutor.child.library.purity import global_changes, global_snapshot

pytestmark = pytest.mark.slow  # JAX in-process (the library imports it)


def learner(source: str) -> types.ModuleType:
    outside.learner_loading()
    module = types.ModuleType("learner_under_test")
    exec(compile(source, "learner_under_test.py", "exec"), module.__dict__)
    outside.learner_loaded(module)
    return module


@pytest.fixture(autouse=True)
def _clean():
    main = sys.modules["__main__"]
    yield
    os.environ.pop("TUTOR_TEST_STEPS", None)
    for name in ("tutor_test_log",):
        if hasattr(builtins, name):
            delattr(builtins, name)
        if hasattr(main, name):
            delattr(main, name)
    sys.modules.pop("tutor_test_registry", None)
    import fractions

    import jax

    for owner in (jax, fractions.Fraction):
        if hasattr(owner, "tutor_test_log"):
            delattr(owner, "tutor_test_log")
    jax.config.update("jax_log_compiles", False)
    import logging
    import threading

    for obj in (logging.getLogger("tutor_test"), logging.root, threading.current_thread(), sys.stdout):
        vars(obj).pop("tutor_test_log", None)
    logging.getLogger("tutor_test").handlers.clear()
    sys.warnoptions[:] = [w for w in sys.warnoptions if w != "tutor_test"]
    import tempfile

    try:
        os.remove(os.path.join(tempfile.gettempdir(), "tutor_test_log.txt"))
    except FileNotFoundError:
        pass


PLACES = {
    "os.environ": (
        "import os\ndef f():\n    os.environ['TUTOR_TEST_STEPS'] = str(int(os.environ.get('TUTOR_TEST_STEPS', '0')) + 1)\n",
        "`os.environ['TUTOR_TEST_STEPS']`",
    ),
    "builtins": (
        "import builtins\ndef f():\n    builtins.tutor_test_log = getattr(builtins, 'tutor_test_log', 0) + 1\n",
        "`builtins.tutor_test_log`",
    ),
    "a list kept in builtins": (
        "import builtins\nbuiltins.tutor_test_log = []\ndef f():\n    builtins.tutor_test_log.append(1)\n",
        "`builtins.tutor_test_log`",
    ),
    "__main__": (
        "import __main__\ndef f():\n    __main__.tutor_test_log = getattr(__main__, 'tutor_test_log', 0) + 1\n",
        "`__main__.tutor_test_log`",
    ),
    "a module made at run time": (
        "import sys, types\nsys.modules['tutor_test_registry'] = types.ModuleType('tutor_test_registry')\n"
        "sys.modules['tutor_test_registry'].calls = []\n"
        "def f():\n    sys.modules['tutor_test_registry'].calls.append(1)\n",
        "`sys.modules['tutor_test_registry'].calls`",
    ),
    "a ContextVar": (
        "import contextvars\nSTEPS = contextvars.ContextVar('steps', default=0)\ndef f():\n    STEPS.set(STEPS.get() + 1)\n",
        "STEPS.get()",
    ),
    "a WeakKeyDictionary": (
        "import weakref\nSEEN = weakref.WeakKeyDictionary()\nclass K: pass\nKEY = K()\n"
        "def f():\n    SEEN[KEY] = SEEN.get(KEY, 0) + 1\n",
        "SEEN",
    ),
    "an attribute added to the jax module": (
        "import jax\njax.tutor_test_log = []\ndef f():\n    jax.tutor_test_log.append(1)\n",
        "`jax.tutor_test_log`",
    ),
    "an attribute of an imported class": (
        "import fractions\nfractions.Fraction.tutor_test_log = 0\n"
        "def f():\n    fractions.Fraction.tutor_test_log += 1\n",
        "`fractions.Fraction.tutor_test_log`",
    ),
    "numpy's global generator": (
        "import numpy as np\ndef f():\n    np.random.random()\n",
        "numpy's global random generator",
    ),
    "jax.config": (
        "import jax\ndef f():\n    jax.config.update('jax_log_compiles', not jax.config.jax_log_compiles)\n",
        "`jax.config.jax_log_compiles`",
    ),
    "a file in the temporary folder": (
        "import os, tempfile\nP = os.path.join(tempfile.gettempdir(), 'tutor_test_log.txt')\n"
        "def f():\n    open(P, 'a').write('x')\n",
        "tutor_test_log.txt",
    ),
    "a namespace object in sys.modules": (
        "import sys, types\nsys.modules['tutor_test_registry'] = types.SimpleNamespace(calls=0)\n"
        "def f():\n    sys.modules['tutor_test_registry'].calls += 1\n",
        "`sys.modules['tutor_test_registry'].calls`",
    ),
    "a cached zero-argument function": (
        "import functools\n@functools.cache\ndef ledger():\n    return {'n': 0}\nledger()\n"
        "def f():\n    ledger()['n'] += 1\n",
        "ledger()",
    ),
    "an attribute of a logger": (
        "import logging\ndef f():\n    lg = logging.getLogger('tutor_test')\n"
        "    lg.tutor_test_log = getattr(lg, 'tutor_test_log', 0) + 1\n",
        "`logging.getLogger('tutor_test').tutor_test_log`",
    ),
    "an attribute of the root logger": (
        "import logging\nlogging.root.tutor_test_log = []\ndef f():\n    logging.root.tutor_test_log.append(1)\n",
        "`logging.getLogger().tutor_test_log`",
    ),
    "a MemoryHandler's buffer": (
        "import logging, logging.handlers\nlg = logging.getLogger('tutor_test')\n"
        "lg.addHandler(logging.handlers.MemoryHandler(1000, flushLevel=100))\nlg.setLevel(1)\n"
        "del lg\ndef f():\n    logging.getLogger('tutor_test').debug('step')\n",
        "`logging.getLogger('tutor_test').handlers[0].buffer`",
    ),
    "a logger's level as a counter": (
        "import logging\nlogging.getLogger('tutor_test').setLevel(1)\n"
        "def f():\n    lg = logging.getLogger('tutor_test')\n    lg.setLevel(lg.level + 1)\n",
        "`logging.getLogger('tutor_test').level`",
    ),
    "an attribute of the running thread": (
        "import threading\ndef f():\n    t = threading.current_thread()\n"
        "    t.tutor_test_log = getattr(t, 'tutor_test_log', 0) + 1\n",
        "`threading.current_thread().tutor_test_log`",
    ),
    "an attribute of sys.stdout": (
        "import sys\ndef f():\n    vars(sys.stdout)['tutor_test_log'] = vars(sys.stdout).get('tutor_test_log', 0) + 1\n",
        "`sys.stdout.tutor_test_log`",
    ),
    "sys.warnoptions": ("import sys\ndef f():\n    sys.warnoptions.append('tutor_test')\n", "`sys.warnoptions`"),
    "a function's defaults rebound": (
        "def f(_t=0):\n    f.__defaults__ = (_t + 1,)\n",
        "f.__defaults__",
    ),
}


@pytest.mark.parametrize("place", list(PLACES))
def test_state_kept_outside_the_module_is_named_by_its_place(place, tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))  # a run's own TMPDIR, as the worker has
    source, said = PLACES[place]
    module = learner(source)
    before = global_snapshot(module)
    module.f()
    changed = global_changes(module, before)
    assert changed and said in changed.en, changed.en
    assert changed.zh and said.strip("`") in changed.zh


READS = {
    "reads the environment": "import os\ndef f():\n    return os.environ.get('HOME')\n",
    "reads a ContextVar": "import contextvars\nV = contextvars.ContextVar('v', default=2)\ndef f():\n    return V.get()\n",
    "a cache already filled": "import functools\n@functools.lru_cache\ndef table():\n    return (1, 2)\ntable()\ndef f():\n    return table()\n",
    "imports a library lazily": "def f():\n    import colorsys\n    return colorsys.rgb_to_hsv(0.1, 0.2, 0.3)\n",
    "reads __main__": "import __main__\ndef f():\n    return getattr(__main__, '__name__')\n",
    "draws from its own numpy Generator": "import numpy as np\ndef f():\n    return np.random.default_rng(0).random()\n",
    "compiles a jitted jnp call": "import jax, jax.numpy as jnp\ndef f():\n    return jax.jit(jnp.cumsum)(jnp.arange(7.0))\n",
    "reads jax.config": "import jax\ndef f():\n    return jax.config.jax_enable_x64\n",
    "logs a warning (the root logger's first handler)": "import logging\ndef f():\n    logging.warning('step')\n",
    "logs to a logger it first asks for": "import logging\ndef f():\n    logging.getLogger('tutor_test.new').info('x')\n",
    "silences warnings in a context": (
        "import warnings\ndef f():\n    with warnings.catch_warnings():\n        warnings.simplefilter('ignore')\n"
    ),
    "reads the running thread's name": "import threading\ndef f():\n    return threading.current_thread().name\n",
}


@pytest.mark.parametrize("what", list(READS))
def test_reading_shared_places_is_no_change(what):
    module = learner(READS[what])
    before = global_snapshot(module)
    module.f()
    assert not global_changes(module, before)
