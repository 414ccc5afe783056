"""doctor on state reached from a jitted step that is not a module global (issue 42, items 2
and 3): an attribute of main()'s `config`, a nonlocal counter, a list a factory's step closes
over, an iterator advanced under trace, a static `self` changed after its trace (a stale cache);
what findings cost: the time a per-step pull waited, the time a retrace took, the costliest
first; and keys by meaning (item 1): a value and its own gradient drawn with one key are one use,
demo cells that each seed PRNGKey(0) again are demos, a reuse names the line that made the key. Each plant in tests/doctor/ has a clean copy that must stay clean (their markers are
checked by test_doctor.py); here, that each is named by its own code and words."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tutor.doctor import wording
from tutor.doctor.findings import group
from tutor.protocol import Finding

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "doctor"
NAMES = [
    "side_effect_local_config.py",
    "side_effect_nonlocal_count.py",
    "side_effect_closure_history.py",
    "side_effect_iterator_in_jit.py",
    "side_effect_stale_static_self.py",
    "side_effect_stale_bound_method.py",
    "clean_local_config.py",
    "clean_bound_method_lr_argument.py",
    "clean_iterator_outside_jit.py",
    "clean_static_self_frozen.py",
    "host_sync_float_each_step.py",
    "retrace_static_lr.py",
    "key_reuse_jitted_step.py",
    "key_reuse_value_and_grad.py",
    "clean_key_value_and_grad.py",
    "clean_reseeded_demo_cells.ipynb",
]

BATCH = textwrap.dedent("""
    import contextlib, io, json, os, sys
    sys.path.insert(0, sys.argv[1])
    from tutor.child.doctor.probe import examine
    out = {}
    for path in json.loads(sys.argv[2]):
        os.chdir(os.path.dirname(path))
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            report = examine(os.path.basename(path), [])
        out[os.path.basename(path)] = [
            {"code": f.code, "line": f.line, "name": f.name, "count": f.count, "seconds": f.seconds, "made": f.made_line}
            for f in report.findings
        ]
    print("REPORTS " + json.dumps(out))
""")


@pytest.fixture(scope="module")
def found() -> dict:
    flags = (os.environ.get("XLA_FLAGS", "") + " --xla_backend_optimization_level=0").strip()
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONPATH=str(ROOT), XLA_FLAGS=flags)
    env.pop("JAX_DISABLE_JIT", None)
    done = subprocess.run(
        [sys.executable, "-c", BATCH, str(ROOT), json.dumps([str(SCRIPTS / n) for n in NAMES])],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("REPORTS ")), None)
    assert line, done.stderr[-3000:]
    return json.loads(line[len("REPORTS ") :])


def _marked(name: str) -> int:
    lines = (SCRIPTS / name).read_text(encoding="utf-8").splitlines()
    return next(i for i, text in enumerate(lines, 1) if "# finding:" in text)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "code", "named"),
    [
        ("side_effect_local_config.py", "mutation", "config.learning_rate"),
        ("side_effect_nonlocal_count.py", "rebound", "steps_taken"),
        ("side_effect_closure_history.py", "mutation", "history"),
        ("side_effect_iterator_in_jit.py", "iterator", "data"),
        ("side_effect_stale_static_self.py", "stale", "self.lr"),
        ("side_effect_stale_bound_method.py", "stale", "self.lr"),  # jax.jit(self.step): self baked in
    ],
)
def test_state_reached_from_the_step_is_named_at_its_line(found, name, code, named):
    (f,) = found[name]
    assert (f["code"], f["name"], f["line"]) == (code, named, _marked(name)), f
    if code == "stale":  # every call after the first ran the old program
        assert f["count"] >= 20, f


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("clean_")])
def test_the_clean_copies_stay_clean(found, name):
    """clean_reseeded_demo_cells.ipynb: cells that each seed PRNGKey(0) again and draw, split or
    train from it replay one chain of keys once per cell: demos, not a training bug."""
    assert found[name] == []


@pytest.mark.slow
def test_findings_say_what_they_cost(found):
    (sync,) = found["host_sync_float_each_step.py"]
    (retrace,) = found["retrace_static_lr.py"]
    assert sync["seconds"] > 0 and retrace["seconds"] > 0, (sync, retrace)
    f = Finding("host-sync", "per-step", "t.py", 9, function="step", count=40, via=("float()",), seconds=1.5)
    assert "waited 1.50 s" in wording.what(f, "en") and "1.50 秒" in wording.what(f, "zh")
    r = Finding("retrace", "static", "t.py", 4, function="sgd", count=3, seconds=0.54)
    assert "0.54 s" in wording.what(r, "en") and "0.54 秒" in wording.what(r, "zh")
    cheap = Finding("host-sync", "per-step", "t.py", 9, function="step", count=40, via=("float()",), seconds=0.001)
    assert "waited" not in wording.what(cheap, "en")  # not measured worth a word: no number said


@pytest.mark.slow
def test_a_key_reuse_names_the_line_that_made_the_key(found):
    (f,) = found["key_reuse_jitted_step.py"]
    lines = (SCRIPTS / "key_reuse_jitted_step.py").read_text(encoding="utf-8").splitlines()
    made = next(i for i, text in enumerate(lines, 1) if "jax.random.key(42)" in text)
    assert (f["code"], f["line"], f["made"]) == ("reused", _marked("key_reuse_jitted_step.py"), made), f
    said = Finding("key-reuse", "reused", "t.py", 16, count=4, first_line=16, made_line=made)
    assert f"made at line {made}" in wording.what(said, "en") and f"第 {made} 行创建" in wording.what(said, "zh")


@pytest.mark.slow
def test_a_value_and_its_own_gradient_are_one_use_of_a_key(found):
    assert found["clean_key_value_and_grad.py"] == []  # eagerly and in a jitted step, split every pass
    (f,) = found["key_reuse_value_and_grad.py"]  # the same pair with one key on every pass: reused
    assert f["code"] == "reused" and f["line"] == _marked("key_reuse_value_and_grad.py") and f["count"] == 19, f


def test_findings_are_ranked_by_the_time_they_lost():
    free = Finding("side-effect", "print", "t.py", 2, function="step")
    sync = Finding("host-sync", "per-step", "t.py", 30, function="step", count=50, seconds=2.0)
    retrace = Finding("retrace", "static", "t.py", 20, function="sgd", count=3, seconds=0.6)
    more = Finding("retrace", "static", "t.py", 20, function="sgd", count=2, seconds=1.8)
    ranked = group([free, retrace, sync, more])
    assert [(f.line, f.count, round(f.seconds, 2)) for f in ranked] == [(20, 5, 2.4), (30, 50, 2.0), (2, 1, 0.0)]
