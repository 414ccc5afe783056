"""A correct solution checked through the real command line on a host whose setting breaks the
worker's start: the verdict names that setting (the PYTHONPATH entry, XLA_FLAGS, the shell's
`ulimit`) and what to do, never "reinstall"; and the start-up noise of JAX's runtimes stays out
of the stderr a person is shown (the JSON keeps it)."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = ROOT / "solutions" / "counter-jit.py"
KB = 1024

# A TPU's every start, as its runtime prints it (tutor.sandbox.noise), made here by the worker alone.
NOISY_SITECUSTOMIZE = """import sys
if "tutor.child.worker" in sys.orig_argv:
    sys.stderr.write(
        "/usr/lib/python3/site-packages/jax/_src/cloud_tpu_init.py:88: UserWarning: Transparent hugepages are "
        "not enabled. TPU runtime startup and shutdown time should be significantly improved on TPU v5e and newer.\\n"
        "  warnings.warn(\\n"
        "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\\n"
        "I0000 00:00:1733427560.123456   12345 tpu_initializer_helper.cc:116] starting\\n"
    )
"""


@pytest.fixture
def check(tmp_path, cli_env):
    """check(env=..., limits=..., json=True): `check counter-jit` of the reference solution, with
    these variables added to the environment and these (soft = hard) limits set on the CLI."""

    def run(env=None, limits=None, as_json=True):
        environ = {**cli_env(tmp_path / "home"), "JAXSTATE_TUTOR_LANG": "en", **(env or {})}

        def limited():
            for which, value in (limits or {}).items():
                resource.setrlimit(which, (value, value))

        proc = subprocess.run(
            [sys.executable, "-m", "tutor", "check", "counter-jit", "--file", str(SOLUTION)]
            + (["--json"] if as_json else []),
            env=environ,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            preexec_fn=limited,
        )
        return json.loads(proc.stdout) if as_json else proc.stdout

    return run


def _startup(doc: dict) -> str:
    assert (doc["status"], doc["kind"]) == ("error", "startup"), doc["message"]
    message = doc["message"]
    assert "not a fault in your code" in message and "pip install" not in message, message
    assert "warnings.warn(" not in message
    return message


@pytest.mark.slow  # starts a worker
def test_a_fake_jax_on_pythonpath_is_named_with_its_path(check, cli_env, tmp_path):
    fake = tmp_path / "play"
    (fake / "jax").mkdir(parents=True)
    (fake / "jax" / "__init__.py").write_text("raise ImportError('this is not JAX')\n", encoding="utf-8")
    pythonpath = f"{cli_env(tmp_path)['PYTHONPATH']}:{fake}"
    message = _startup(check(env={"PYTHONPATH": pythonpath}))
    assert "PYTHONPATH" in message and str(fake / "jax") in message, message


@pytest.mark.slow  # starts a worker
def test_an_unknown_xla_flag_is_named_and_the_runtime_noise_is_not_shown(check, cli_env, tmp_path):
    noisy = tmp_path / "noisy"
    noisy.mkdir()
    (noisy / "sitecustomize.py").write_text(NOISY_SITECUSTOMIZE, encoding="utf-8")
    env = {"XLA_FLAGS": "--xla_no_such_flag=1", "PYTHONPATH": f"{cli_env(tmp_path)['PYTHONPATH']}:{noisy}"}
    doc = check(env=env)
    message = _startup(doc)
    assert "XLA_FLAGS=--xla_no_such_flag=1" in message and "env -u XLA_FLAGS" in message, message
    assert "Transparent hugepages" in doc["stderr"]  # the JSON keeps all of it
    shown = check(env=env, as_json=False)
    assert "Unknown flag in XLA_FLAGS" in shown and "XLA_FLAGS=--xla_no_such_flag=1" in shown, shown
    assert "hugepages" not in shown and "warnings.warn(" not in shown and "absl::InitializeLog" not in shown, shown


@pytest.mark.slow  # starts a worker
def test_a_small_address_space_is_named_with_its_value(check):
    """`ulimit -v 1000000`: JAX cannot start (bad_alloc, MemoryError or SIGSEGV, by the host)."""
    message = _startup(check(limits={resource.RLIMIT_AS: 1000000 * KB}))
    assert "`ulimit -v`" in message and "1000000 KB" in message, message


@pytest.mark.slow  # starts a worker
def test_a_tiny_data_limit_is_named_with_its_value(check):
    """`ulimit -d 150000`: XLA cannot even make its threads (their stacks count as data)."""
    message = _startup(check(limits={resource.RLIMIT_DATA: 150000 * KB}))
    assert "`ulimit -d`" in message and "150000 KB" in message, message


@pytest.mark.slow  # starts a worker
@pytest.mark.parametrize(
    "which, kb",
    [(resource.RLIMIT_DATA, 3000000), (resource.RLIMIT_FSIZE, 100000)],
    ids=["ulimit -d below 4 GiB", "ulimit -f below 1 GiB"],
)
def test_a_classroom_hard_limit_below_the_tutors_own_still_passes(check, which, kb):
    """A hard `ulimit -d` below the tutor's 4 GiB or `ulimit -f` below its 1 GiB is enough for a
    check: the worker runs under the host's limit instead of failing to raise it."""
    doc = check(limits={which: kb * KB})
    assert (doc["status"], doc["kind"]) == ("pass", "checks"), doc["message"]
