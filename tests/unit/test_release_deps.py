"""What the released tutor may depend on: no private module of Rich or Textual (a release of
either may move or drop it), and Textual and Rich in ranges whose upper end is below their next
major version (the lower ends are what CI's release check tries)."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _imported(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_the_tutor_imports_no_private_module_of_rich_or_textual():
    private = re.compile(r"^(rich|textual)(\.\w+)*\._")
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / "tutor").rglob("*.py"))
        for name in _imported(path)
        if private.match(name)
    ]
    assert not found, found


def _requirement(name: str) -> str:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    return next(d for d in deps if re.match(rf"{name}\s*[<>=!~]", d))


def test_textual_and_rich_are_ranges_capped_below_their_next_major():
    for name in ("textual", "rich"):
        spec = _requirement(name)
        low = re.search(r">=\s*(\d+)(?:\.\d+)*", spec)
        high = re.search(r"<\s*(\d+)(?:\.\d+)*", spec)
        assert low and high and "==" not in spec, spec
        assert int(high.group(1)) <= int(low.group(1)) + 2, spec  # at most the majors CI has tried


def test_the_sdist_holds_every_tracked_top_level_path():
    """The sdist is an allowlist (a working tree also holds wheelhouses and logs): a folder added
    to the repository and read by its tests (docs/ is) must be added to it."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an unpacked sdist): nothing to compare with")
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    top = {line.split("/")[0] for line in tracked.splitlines() if line}
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    included = set(config["tool"]["hatch"]["build"]["targets"]["sdist"]["only-include"])
    left_out = {".ci", ".gitignore", "pyproject.toml"}  # CI's script and git's; hatch always adds pyproject.toml
    assert top - included - left_out == set()
