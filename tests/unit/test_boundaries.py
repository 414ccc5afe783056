"""Layer rules: the core never imports Textual or JAX; the UI never imports JAX."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CORE = [
    "tutor.cli.main",
    "tutor.course",
    "tutor.course.loader",
    "tutor.progress",
    "tutor.sandbox.runner",
    "tutor.sandbox.events",
    "tutor.files.workspace",
    "tutor.terminal.render",
    "tutor.paths",
    "tutor.i18n",
    "tutor.progress.state",
    "tutor.progress.reports",
    "tutor.progress.path",
    "tutor.terminal.marks",
    "tutor.files.outside_edits",
    "tutor.cli.verify",
    "tutor.course.verify",
    "tutor.cli.watch_loop",
    "tutor.files.edited_file",
]


def imported_after(modules: list[str]) -> set[str]:
    code = "import json, sys\n" + "".join(f"import {m}\n" for m in modules) + "print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True, timeout=60)
    return set(json.loads(out.stdout))


@pytest.mark.parametrize("module", CORE)
def test_core_imports_neither_jax_nor_textual(module):
    loaded = imported_after([module])
    assert not any(m == "jax" or m.startswith("jax.") for m in loaded), f"{module} pulls in jax"
    assert not any(m == "textual" or m.startswith("textual.") for m in loaded), f"{module} pulls in textual"


def ui_modules() -> list[str]:
    """Every module of the UI package: its screens load lazily, so importing only the app would
    miss a JAX import in a screen."""
    files = sorted((ROOT / "tutor" / "ui").rglob("*.py"))
    names = [".".join(f.relative_to(ROOT).with_suffix("").parts) for f in files]
    return [n.removesuffix(".__init__") for n in names]


def test_ui_does_not_import_jax():
    pytest.importorskip("textual")
    modules = ui_modules()
    assert "tutor.ui.screens.exercise" in modules and "tutor.ui.widgets.editor" in modules
    loaded = imported_after(modules)
    assert not any(m == "jax" or m.startswith("jax.") for m in loaded)
    assert "textual" in loaded
