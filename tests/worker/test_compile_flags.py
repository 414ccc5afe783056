"""The compile-time XLA flags (tutor.child.compile_flags): a flag this XLA does not know is left
out instead of ending the worker, the learner's own XLA_FLAGS win, and judging workers (forked
or spawned) get what the probe accepted while a doctor run sees the environment untouched."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.child import compile_flags
from tutor.course.model import Cell
from tutor.sandbox.runner import Sandbox

pytestmark = pytest.mark.slow  # JAX backends in child processes, real workers

ROOT = Path(__file__).resolve().parents[2]
SHOW = Cell(id="flags", code="import os\nprint('flags=' + os.environ.get('XLA_FLAGS', '<unset>'))")


def probed(flags: tuple[str, ...], learner_flags: str | None = None) -> str:
    """What probe() says in a fresh process given `flags` to try, then (unless the learner's own
    flags would stop it) whether that process can still start its backend: nothing the probe
    tried may have reached it."""
    code = (
        "import jax\nfrom tutor.child import compile_flags\n"
        f"compile_flags.FAST_COMPILE = {flags!r}\n"
        "print(compile_flags.probe())\n" + ("print(jax.devices()[0].platform)\n" if learner_flags is None else "")
    )
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    env.pop("XLA_FLAGS", None)
    if learner_flags is not None:
        env["XLA_FLAGS"] = learner_flags
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_a_flag_this_xla_does_not_know_is_left_out_and_the_process_lives():
    assert probed(("--xla_no_such_flag_in_any_xla=1",)).split("\n")[:2] == ["()", "cpu"]


def test_a_flag_every_xla_knows_is_kept():
    assert probed(("--xla_cpu_enable_fast_math=false",)).split("\n")[0] == "('--xla_cpu_enable_fast_math=false',)"


def test_each_flag_is_judged_on_its_own():
    flags = ("--xla_no_such_flag_in_any_xla=1", "--xla_cpu_enable_fast_math=false")
    assert probed(flags).split("\n")[:2] == ["('--xla_cpu_enable_fast_math=false',)", "cpu"]


def test_the_learners_own_flags_are_tried_with_ours_and_come_last(monkeypatch):
    monkeypatch.setattr(compile_flags, "_known", ("--xla_a=1",))
    assert compile_flags.xla_flags(None) == "--xla_a=1"
    assert compile_flags.xla_flags("--xla_a=0 --xla_b=2") == "--xla_a=1 --xla_a=0 --xla_b=2"
    monkeypatch.setattr(compile_flags, "_known", ())
    assert compile_flags.xla_flags(None) == ""
    # flags the learner's XLA_FLAGS would break anyway: ours are not blamed, and not added
    assert probed(("--xla_cpu_enable_fast_math=false",), learner_flags="--xla_unknown_to_all=1").split("\n")[0] == "()"


@pytest.mark.parametrize("fork_server", [True, False], ids=["forked", "spawned"])
def test_judging_workers_compile_with_the_accepted_flags(tmp_path, monkeypatch, fork_server):
    monkeypatch.delenv("XLA_FLAGS", raising=False)
    accepted = ast.literal_eval(probed(compile_flags.FAST_COMPILE).split("\n")[0])
    want = " ".join(accepted) or "<unset>"
    box = Sandbox(tmp_path / "home", keep_spare=fork_server, fork_server=fork_server)
    try:
        assert f"flags={want}\n" in box.run_cell(SHOW).result().stdout
    finally:
        box.close()


def test_a_doctor_run_sees_the_learners_xla_flags_as_they_are(tmp_path, monkeypatch):
    monkeypatch.setenv("XLA_FLAGS", "--xla_force_host_platform_device_count=2")
    script = tmp_path / "show.py"
    script.write_text(SHOW.code + "\nimport jax\nprint('devices', len(jax.devices()))\n")
    box = Sandbox(tmp_path / "home", keep_spare=True)
    try:
        run = box.run_doctor(script, [], tmp_path, 120, False)
        out = "".join(getattr(e, "text", "") for e in run.events())
    finally:
        box.close()
    assert "flags=--xla_force_host_platform_device_count=2\n" in out and "devices 2" in out


def test_no_process_to_spare_for_the_probe_means_no_flags_not_a_failure(monkeypatch):
    def refuse():
        raise BlockingIOError(11, "Resource temporarily unavailable")  # fork under `ulimit -u`

    monkeypatch.setattr(compile_flags.os, "fork", refuse)
    monkeypatch.setattr(compile_flags, "_known", None)
    assert compile_flags.probe() == ()
