"""Facts the lessons state as depending on the JAX version, probed in a fresh process on the
installed JAX (CI runs 0.10 and 0.12). A lesson cell can assert only what holds on every
version; what differs is pinned here, so a lesson sentence that says "0.12 does, 0.10 does
not" is checked against both."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tutor.course import read_course

pytestmark = pytest.mark.slow  # a JAX process each


def _run(code: str) -> str:
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _jax_at_least_012() -> bool:
    version = _run("import jax; print(jax.__version__)").strip()
    return tuple(int(p) for p in version.split(".")[:2]) >= (0, 12)


def test_the_key_reuse_checker_follows_a_returned_key_only_on_newer_jax():
    # 6.5 "Key reuse as the checker sees it": one key passed to two jitted calls is caught on
    # every version (the cell l65-key-reuse-checker asserts it); a key that one call consumed
    # and returned is caught by 0.12, not by 0.10.
    out = _run(
        """
        import jax

        @jax.jit
        def keeps_used(key):
            _, sub = jax.random.split(key)
            return sub, jax.random.normal(sub, (3,))

        @jax.jit
        def draw(key):
            return jax.random.normal(key, (3,))

        try:
            with jax.debug_key_reuse(True):
                key, _ = keeps_used(jax.random.key(0))
                draw(key)
            print("returned key: not caught")
        except jax.errors.KeyReuseError:
            print("returned key: caught")
        """
    )
    expected = "caught" if _jax_at_least_012() else "not caught"
    assert f"returned key: {expected}\n" in out


def test_a_write_after_freeze_outside_jit_depends_on_the_version():
    # 6.3 "What a Ref can and cannot do": outside jit nothing stops a write after jax.freeze,
    # and whether the frozen array shows it depends on the version (0.12: it does).
    out = _run(
        """
        import jax
        import jax.numpy as jnp

        r = jax.new_ref(jnp.zeros(3))
        frozen = jax.freeze(r)
        r[...] = jnp.ones(3)
        print("frozen after a write:", frozen)
        """
    )
    expected = "[1. 1. 1.]" if _jax_at_least_012() else "[0. 0. 0.]"
    assert f"frozen after a write: {expected}" in out


def _course():
    return read_course(Path(__file__).resolve().parents[2])[0]


def _lesson_text(lesson_id: str, lang: str) -> str:
    lesson = _course().lesson(lesson_id)
    assert lesson is not None
    return "\n".join(getattr(b.text, lang) for b in lesson.blocks if b.text is not None)


def test_grad_with_respect_to_a_ref_says_no_as_the_lesson_says_on_each_version():
    # 6.3: 0.12 refuses a Ref in a differentiated argument with TypeError, whatever the body does;
    # 0.10 has no check: a Ref the body reads is a ValueError, one only written an AttributeError
    # (which an `except (TypeError, ValueError)` let through), one never used goes through.
    out = _run(next(c for c in _course().cells() if c.id == "l63-ref-grad-argument").code)
    if _jax_at_least_012():
        want = {"read": "TypeError", "written": "TypeError", "unused": "TypeError"}
    else:
        want = {"read": "ValueError", "written": "AttributeError", "unused": "went through"}
    for name, outcome in want.items():
        assert f"grad w.r.t. a Ref, {name}: {outcome}\n" in out, out
    for lang in ("en", "zh"):
        text = _lesson_text("6.3", lang)
        for named in ("`TypeError`", "`ValueError`", "`AttributeError`"):
            assert named in text, (lang, named)
