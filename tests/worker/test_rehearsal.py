"""A spare rehearses the calls the previous run compiled (tutor.child.rehearsal).

Each process compiles every jitted call once per signature: a fresh worker paid ~8 ms of CPU per
eager `jnp` call a check or the learner made, which a process that had run the checks before did
not (most of the warm verdict's distance from in-process, issue 50). These tests run real JAX in
separate processes: one notes what it compiled, another rehearses that list, and then makes the
same calls and must compile none of them; and in a real sandbox, the second run of an exercise
compiles fewer of JAX's calls than the first.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from tutor.course import load_course
from tutor.protocol import REHEARSAL_FILE
from tutor.sandbox.runner import Sandbox

pytestmark = pytest.mark.slow  # real JAX in subprocesses, real workers

# Calls of the kinds a check or a learner makes outside jit: a ufunc on an array and a Python
# scalar, a reduction with static arguments, a host list and a NumPy array converted, a cast
# (a primitive run eagerly), a comparison, a where, allclose, a matmul, and a call under vmap.
PROGRAM = """
import jax, jax.numpy as jnp, numpy as np
x = jnp.asarray([1.0, -2.0, 0.5], dtype=jnp.float32)
y = x * 0.5
s = jnp.sum(x, axis=0, keepdims=True)
m = jnp.mean(jnp.asarray(np.ones((2, 3), np.float32)))
i = x.astype(jnp.int32)
w = jnp.where(x > 0, x, 0.0)
c = jnp.allclose(x, y)
d = x @ x
v = jax.vmap(lambda a: a * 2.0)(jnp.ones((4, 3)))
"""


def _python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def _noted(before: str = "") -> list[str]:
    """The calls the program compiled, in a fresh process (after `before`)."""
    out = _python(
        "import json\nfrom tutor.child import rehearsal\n"
        + before
        + "\nrehearsal.note()\n"
        + PROGRAM
        + "\nprint(json.dumps(rehearsal.noted()))"
    )
    return json.loads(out)


def test_a_rehearsed_process_compiles_none_of_the_calls_again(tmp_path):
    first = _noted()
    assert len(first) >= 8, first  # the calls above, each noted once
    assert all(json.loads(c).get("f", ["jax."])[0].startswith("jax.") for c in first)
    calls = tmp_path / "calls.json"
    calls.write_text(json.dumps(first), encoding="utf-8")
    # A process that rehearses them first compiles none of the same calls: each finds its cache.
    again = _noted(
        # (a worker has jax.numpy imported: a rehearsal never imports a module the list names)
        f"import json, jax.numpy\nran = rehearsal.rehearse(json.load(open({str(calls)!r})), lambda: False)\n"
        f"assert ran == {len(first)}, ran\n"
    )
    assert again == [], again


def test_only_jax_own_calls_are_noted_and_rehearsed(tmp_path):
    """The learner's own jitted function is never noted; a forged list naming anything but a
    jitted function of a jax module (os.system, a learner module, a builtin), or arrays too big,
    makes no call."""
    noted = json.loads(
        _python(
            """
            import json, jax, jax.numpy as jnp
            from tutor.child import rehearsal
            rehearsal.note()
            def mine(a):
                return a * 3.0
            jax.jit(mine)(jnp.ones(3))
            print(json.dumps(rehearsal.noted()))
            """
        )
    )
    assert not any("mine" in c for c in noted), noted
    forged = [
        json.dumps({"f": ["os", "system"], "a": [{"v": "touch /tmp/forged"}], "k": {}}),
        json.dumps({"f": ["builtins", "exec"], "a": [{"v": "print(1)"}], "k": {}}),
        json.dumps({"f": ["jax", "config.update"], "a": [{"v": "jax_enable_x64"}, {"v": True}], "k": {}}),
        json.dumps(
            {"f": ["jax._src.numpy.ufuncs", "exp"], "a": [{"shape": [1 << 20, 64], "dtype": "float32"}], "k": {}}
        ),
        json.dumps({"p": "no_such_primitive", "a": [], "k": {}}),
        "not json",
    ]
    ran = _python(
        f"""
        import json, jax
        from tutor.child import rehearsal
        import jax.numpy
        print(rehearsal.rehearse({forged!r}, lambda: False), jax.config.jax_enable_x64)
        """
    )
    assert ran == "0 False", ran


def test_the_second_run_of_an_exercise_finds_its_calls_compiled(tmp_path):
    """In a sandbox with a spare (as the TUI keeps one), the next spare rehearses what a run
    compiled; its run then compiles fewer of JAX's calls, and its file is gone before the job."""
    course = load_course()
    exercise = course.exercise("pure-scale")
    path = course.solution_path(exercise.id)
    source = path.read_text(encoding="utf-8")
    box = Sandbox(tmp_path / "home", keep_spare=True)
    try:
        runs = []
        for _ in range(2):
            box.warm_up()
            assert box.wait_ready(300)
            run = box.run_exercise(exercise, source, str(path))
            assert run.result().passed, run.verdict.message.en
            runs.append(run)
        assert runs[0].compiled, "the first run noted nothing it compiled"
        assert len(runs[1].compiled) < len(runs[0].compiled), (runs[0].compiled, runs[1].compiled)
        box.warm_up()
        assert box.wait_ready(300)
        assert not os.path.exists(os.path.join(box._spare.workdir, REHEARSAL_FILE))  # read and removed before ready
    finally:
        box.close()
