"""Layer rules: the core never imports Textual or JAX; the UI never imports JAX."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT

CORE = ["tutor.cli", "tutor.course", "tutor.course.loader", "tutor.progress", "tutor.sandbox.runner",
        "tutor.sandbox.events", "tutor.workspace", "tutor.render", "tutor.paths", "tutor.i18n"]


def imported_after(modules: list[str]) -> set[str]:
    code = ("import json, sys\n" + "".join(f"import {m}\n" for m in modules) +
            "print(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True, timeout=60)
    return set(json.loads(out.stdout))


@pytest.mark.parametrize("module", CORE)
def test_core_imports_neither_jax_nor_textual(module):
    loaded = imported_after([module])
    assert not any(m == "jax" or m.startswith("jax.") for m in loaded), f"{module} pulls in jax"
    assert not any(m == "textual" or m.startswith("textual.") for m in loaded), f"{module} pulls in textual"


def test_ui_does_not_import_jax():
    pytest.importorskip("textual")
    try:
        loaded = imported_after(["tutor.ui.app"])
    except subprocess.CalledProcessError as exc:
        if "No module named 'tutor.ui'" in exc.stderr:
            pytest.skip("no UI package yet")
        raise
    assert not any(m == "jax" or m.startswith("jax.") for m in loaded)
    assert "textual" in loaded
