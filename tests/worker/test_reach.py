"""What a learner's code can reach and change (tutor.child.reach), in-process with real JAX: every
hiding place a red team found for a history (a default argument, a closure cell, a function
attribute, a container nested in a global, a Ref) is seen, and reads, constants and foreign
modules' state are not reported."""

from __future__ import annotations

import types

import jax
import jax.numpy as jnp
import pytest

from tutor.child import reach

pytestmark = pytest.mark.slow  # JAX in-process


def learner(source: str) -> types.ModuleType:
    module = types.ModuleType("learner_under_test")
    exec(compile(source, "learner_under_test.py", "exec"), module.__dict__)
    return module


def changes_after(source: str, call: str) -> list[reach.Changed]:
    module = learner(source)
    before = reach.snapshot(module)
    exec(call, module.__dict__)
    return reach.changed_since(module, before)


HIDING_PLACES = {
    "a mutable default argument": (
        "def f(x, _log=[]):\n    _log.append(x)\n    return x\n",
        "f's default _log",
    ),
    "a keyword-only default": (
        "def f(x, *, _seen={}):\n    _seen[x] = 1\n    return x\n",
        "f's default _seen",
    ),
    "a closure cell's list": (
        "def make():\n    seen = []\n    def f(x):\n        seen.append(x)\n        return x\n    return f\nf = make()\n",
        "seen (closed over by f)",
    ),
    "a rebound nonlocal": (
        "def make():\n    n = 0\n    def f(x):\n        nonlocal n\n        n += 1\n        return x\n    return f\nf = make()\n",
        "n (closed over by f)",
    ),
    "a container two levels down": (
        "LOG = {'runs': {'calls': []}}\ndef f(x):\n    LOG['runs']['calls'].append(x)\n    return x\n",
        "LOG['runs']['calls']",
    ),
    "a function attribute's dict": (
        "def f(x):\n    f.stats['n'] = f.stats.get('n', 0) + 1\n    return x\nf.stats = {}\n",
        "f.stats",
    ),
    "a module-level Ref": (
        "import jax, jax.numpy as jnp\nCALLS = jax.new_ref(jnp.int32(0))\n"
        "def f(x):\n    CALLS[...] += 1\n    return x\n",
        "CALLS",
    ),
    "an instance of the learner's class": (
        "class Box:\n    def __init__(self):\n        self.items = []\nBOX = Box()\n"
        "def f(x):\n    BOX.items.append(x)\n    return x\n",
        "BOX.items",
    ),
    "a list inside a NamedTuple global": (
        "from typing import NamedTuple\nclass S(NamedTuple):\n    log: list\nSTATE = S([])\n"
        "def f(x):\n    STATE.log.append(x)\n    return x\n",
        "STATE[0]",
    ),
    "NumPy's legacy RandomState": (
        "import numpy as np\nRS = np.random.RandomState(0)\ndef f(x):\n    return x + RS.random()\n",
        "RS",
    ),
    # its get_state() is a dict, not MT19937's tuple: the snapshot raised KeyError (found by mypy)
    "a RandomState over PCG64": (
        "import numpy as np\nRS = np.random.RandomState(np.random.PCG64(0))\ndef f(x):\n    return x + RS.random()\n",
        "RS",
    ),
    "an array.array (a C buffer)": (
        "import array\nLOG = array.array('d')\ndef f(x):\n    LOG.append(x)\n    return x\n",
        "LOG",
    ),
    "a ctypes counter": (
        "import ctypes\nCALLS = ctypes.c_long(0)\ndef f(x):\n    CALLS.value += 1\n    return x\n",
        "CALLS",
    ),
    "a collections.UserDict": (
        "from collections import UserDict\nSTATS = UserDict(n=0)\ndef f(x):\n    STATS['n'] += 1\n    return x\n",
        "STATS",
    ),
    "a collections.UserList": (
        "from collections import UserList\nLOG = UserList()\ndef f(x):\n    LOG.append(x)\n    return x\n",
        "LOG",
    ),
    "a ChainMap's first map": (
        "from collections import ChainMap\nSEEN = ChainMap({}, {'a': 1})\ndef f(x):\n    SEEN[x] = 1\n    return x\n",
        "SEEN[0]",
    ),
    "a queue.SimpleQueue (a C queue)": (
        "import queue\nLOG = queue.SimpleQueue()\ndef f(x):\n    LOG.put(x)\n    return x\n",
        "LOG",
    ),
    "the function behind jax.jit": (
        "import jax\ndef g(x, _log=[]):\n    _log.append(1)\n    return x\nf = jax.jit(g)\n",
        "g's default _log",
    ),
    "a hash fed each call": (
        "import hashlib\nH = hashlib.sha256()\ndef f(x):\n    H.update(b'step')\n    return x\n",
        "H",
    ),
    "a shake hash (its digest needs a length)": (
        "import hashlib\nH = hashlib.shake_128()\ndef f(x):\n    H.update(b'step')\n    return x\n",
        "H",
    ),
    "an hmac fed each call": (
        "import hmac\nM = hmac.new(b'k', digestmod='sha256')\ndef f(x):\n    M.update(b'step')\n    return x\n",
        "M",
    ),
    "rows of an SQLite database": (
        "import sqlite3\nDB = sqlite3.connect(':memory:')\nDB.execute('create table t (x real)')\n"
        "def f(x):\n    DB.execute('insert into t values (?)', (x,))\n    return x\n",
        "DB",
    ),
    "a temporary file written to": (
        "import tempfile\nLOG = tempfile.TemporaryFile('w+')\ndef f(x):\n    LOG.write('step\\n')\n    return x\n",
        "LOG",
    ),
}


@pytest.mark.parametrize("place", sorted(HIDING_PLACES))
def test_a_history_is_seen_wherever_it_hides(place):
    source, path = HIDING_PLACES[place]
    found = changes_after(source, "f(1.0); f(2.0)")
    assert [c.path for c in found if c.path == path], (place, found)


def test_a_list_filled_under_jit_is_named_as_holding_tracers():
    found = changes_after("import jax\nLOG = []\n@jax.jit\ndef f(x):\n    LOG.append(x)\n    return x\n", "f(1.0)")
    assert [(c.path, c.tracers) for c in found] == [("LOG", True)]


@pytest.mark.parametrize(
    "source",
    [
        "CONFIG = {'step': {'size': 1}}\ndef f(x):\n    return x + CONFIG['step']['size']\n",
        "def f(x, step=1, names=('a', 'b')):\n    return x + step\n",
        "import jax\nTABLE = [jnp.ones(3)] if False else [1, 2]\ndef f(x):\n    return x * len(TABLE)\n",
        "import jax\n@jax.jit\ndef f(x):\n    return x * 2\n",
        "import jax, jax.numpy as jnp\nR = jax.new_ref(jnp.ones(2))\ndef f(x):\n    return x + R[...].sum()\n",
        "import functools\n@functools.lru_cache\ndef table(n):\n    return tuple(range(n))\ndef f(x):\n    return x + len(table(3))\n",
        "import array, ctypes\nT = array.array('d', [1, 2])\nONE = ctypes.c_int(1)\nB = b'ab'\n"
        "def f(x):\n    return x * T[0] * ONE.value * len(B) * len(memoryview(B))\n",
        "import queue\nfrom collections import UserDict\nQ = queue.SimpleQueue()\nC = UserDict(a=1)\n"
        "def f(x):\n    return x + Q.qsize() + C['a']\n",
        # C objects only read: a hash copied, a database queried, a file read again, the streams printed to
        "import hashlib, sqlite3, sys, tempfile\nH = hashlib.sha256(b'salt')\nDB = sqlite3.connect(':memory:')\n"
        "DB.execute('create table t (x real)')\nDB.execute('insert into t values (2)')\nDB.commit()\n"
        "SRC = open(__import__('os').devnull)\nOUT, ERR = sys.stdout, sys.stderr\n"
        "def f(x):\n    H.copy().update(b'x')\n    SRC.seek(0)\n    SRC.read()\n    print('f', file=OUT)\n"
        "    ERR.write('f\\n')\n    return x * DB.execute('select x from t').fetchone()[0]\n",
    ],
)
def test_reads_constants_and_caches_are_not_changes(source):
    assert changes_after(source, "f(1.0); f(2.0)") == []


def test_foreign_modules_are_not_walked():
    module = learner("import numpy as np\nimport jax\nimport jax.numpy as jnp\nx = jnp.ones(3)\n")
    assert set(reach.snapshot(module)) == set()


def test_a_huge_global_stops_the_walk_without_failing():
    module = learner("BIG = [[i] for i in range(100_000)]\ndef f(x):\n    BIG[0].append(x)\n    return x\n")
    before = reach.snapshot(module)
    assert len(before) <= reach.MAX_OBJECTS + 1
    module.f(1)
    assert [c.path for c in reach.changed_since(module, before)] == ["BIG[0]"]


def test_jax_arrays_are_immutable_and_not_recorded():
    module = learner("import jax.numpy as jnp\nW = {'w': jnp.ones(3)}\n")
    assert set(reach.snapshot(module)) == {"W"}
    assert jax.Array  # the walk relies on it to skip arrays
    assert isinstance(jnp.ones(1), jax.Array)
