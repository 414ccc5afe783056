"""The released wheel says what it is: one version (tutor/__init__.py's) in its metadata, in
`importlib.metadata` and in `jaxstate-tutor --version`; the Python versions and systems the
README names; its README as the index page's description."""

from __future__ import annotations

import subprocess
import zipfile
from email.parser import HeaderParser
from pathlib import Path

import pytest

import tutor

pytestmark = pytest.mark.slow  # builds a wheel and installs it in a venv (the session's installed_wheel)
ROOT = Path(__file__).resolve().parents[2]


def _metadata(wheel: Path):
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        return HeaderParser().parsestr(z.read(name).decode())


def test_the_cli_the_wheel_and_the_package_agree_on_the_version(tmp_path, installed_wheel):
    meta = _metadata(installed_wheel.wheel)
    assert meta["Version"] == tutor.__version__
    assert f"-{tutor.__version__}-" in installed_wheel.wheel.name
    env = installed_wheel.env(tmp_path / "home")
    printed = subprocess.run(
        [str(installed_wheel.bin / "jaxstate-tutor"), "--version"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.strip() == f"jaxstate-tutor {tutor.__version__}"
    installed = subprocess.run(
        [str(installed_wheel.python), "-c", "from importlib.metadata import version; print(version('jaxstate-tutor'))"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60, check=True,
    )  # fmt: skip
    assert installed.stdout.strip() == tutor.__version__


def test_the_index_page_says_which_pythons_and_systems(installed_wheel):
    meta = _metadata(installed_wheel.wheel)
    classifiers = set(meta.get_all("Classifier"))
    for python in ("3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {python}" in classifiers
    for system in ("POSIX :: Linux", "MacOS", "Microsoft :: Windows"):
        assert f"Operating System :: {system}" in classifiers
    assert meta["Requires-Python"] == ">=3.11"
    assert meta["Description-Content-Type"] == "text/markdown"
    assert meta.get_payload().strip() == (ROOT / "README.md").read_text(encoding="utf-8").strip()
    # Ranges, not exact pins: an exact pin makes the tutor conflict with any other tool beside it.
    assert not [r for r in meta.get_all("Requires-Dist") if "==" in r and "extra ==" not in r]
