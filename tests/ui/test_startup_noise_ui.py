"""The stderr the exercise screen shows leaves out what JAX's runtimes print on every start (a
TPU's hugepages warning, absl's log lines): the worker's real error stays in view."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("textual")

from tutor.course import read_course
from tutor.i18n import Bilingual
from tutor.sandbox.events import Output
from tutor.ui.app import make_app
from tutor.ui.mark_styles import Marks

ROOT = Path(__file__).resolve().parents[2]
COURSE, _PROBLEMS = read_course(ROOT)
NOISE = (
    "/opt/jax/_src/cloud_tpu_init.py:88: UserWarning: Transparent hugepages are not enabled. TPU runtime "
    "startup and shutdown time should be significantly improved on TPU v5e and newer.\n"
    "  warnings.warn(\n"
    "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\n"
    "I0000 00:00:1733427560.123456   12345 tpu_initializer_helper.cc:116] starting\n"
)
ERROR = "F1205 21:20:01.418013    7115 parse_flags_from_env.cc:234] Unknown flag in XLA_FLAGS: --xla_no_such_flag=1\n"


def test_the_runtime_start_noise_is_not_shown_as_stderr(home, fake_sandbox, tui):
    if COURSE.exercise("counter-jit") is None:
        pytest.skip("exercise counter-jit is not in the course yet")
    message = Bilingual(en="the tutor could not start its worker: XLA_FLAGS", zh="工作进程没能启动：XLA_FLAGS")
    verdict = replace(fake_sandbox.verdict("error", kind="startup", message=message), stderr=NOISE + ERROR)
    fake_sandbox.script("counter-jit", Output("stderr", NOISE), Output("stderr", ERROR), verdict)

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        app.marks = Marks(ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await tui.open_exercise(pilot, "counter-jit")
            await tui.check(pilot, screen)
            shown = screen.query_one("#output").content.plain
            assert "Unknown flag in XLA_FLAGS" in shown, shown
            assert "hugepages" not in shown and "warnings.warn(" not in shown and "absl" not in shown, shown

    asyncio.run(body())
