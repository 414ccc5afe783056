"""The test suite's tiers and options; its fixtures live in plugins/, one file per concern
(course_homes, real_sandbox, scripted_sandbox, pilot, fs_faults, terminal,
peer_users, browser).

Test modules never import each other, this file or a plugin: what they share is a fixture. The
`slow` marker is set here, on every test in worker/ or e2e/ and every test that needs a real
worker or a real terminal; `pytest -m "not slow" -n 4 --dist worksteal` is the fast tier, plain `pytest` runs
everything.
"""

from __future__ import annotations

import gc
import signal
import sys
import zlib
from pathlib import Path

import pytest

from tutor.course import cases

# These machines set PYTHONDONTWRITEBYTECODE, so nothing would ever cache the suite's own
# bytecode: every xdist worker compiled the tutor's modules from source and rewrote every test
# module's asserts again, on every run (about 4 s of CPU per worker). The caches are ignored by git.
sys.dont_write_bytecode = False

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

# Tests press Ctrl+C (SIGINT) on the tutor's commands as a learner at a terminal would. A test
# run started as a background job of a non-interactive shell (how CI may run it) inherits SIGINT
# ignored, and children would inherit that: handle it here, so children start with the default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# A test that asks for one of these starts a worker process (JAX) or drives a terminal: slow tier.
pytest_plugins = [
    "plugins.course_homes",
    "plugins.real_sandbox",
    "plugins.scripted_sandbox",
    "plugins.pilot",
    "plugins.fs_faults",
    "plugins.terminal",
    "plugins.peer_users",
    "plugins.class_accounts",
    "plugins.browser",
]

SLOW_FIXTURES = {"sandbox", "tmux", "installed_wheel", "chromium", "chromium_without_fonts"}


def pytest_addoption(parser):
    parser.addoption(
        "--mutant-share",
        default="1/1",
        metavar="K/N",
        help="judge only share K of N of the fail_* cases (stable by name); every pass_* case "
        "always runs. CI's second JAX version uses 1/6 to stay within its time budget.",
    )


# Tests live in folders by tier: unit/ (logic, no worker), ui/ (Pilot with a scripted sandbox),
# cli/ (the command line as a subprocess): fast unless a test asks for a SLOW_FIXTURES fixture
# or is marked; worker/ (real workers, JAX in-process) and e2e/ (a real terminal, a wheel): slow.
SLOW_FOLDERS = {"worker", "e2e"}


def _tier(path: Path) -> str:
    parts = path.relative_to(TESTS).parts
    return parts[0] if len(parts) > 1 else ""


def pytest_ignore_collect(collection_path, config):
    """Under -m "not slow", the slow folders are not even imported (JAX in every fast run)."""
    if config.getoption("markexpr") != "not slow":
        return None
    try:
        return _tier(Path(collection_path)) in SLOW_FOLDERS or None
    except ValueError:  # outside tests/
        return None


# The folders whose tests take longest run first: a parallel run hands out tests in this order,
# and idle processes take queued tests from busy ones, so what is left at the end is short (with
# ui/ last, the fast tier ended 10-20 s after three of its four processes, waiting on the fourth).
LONGEST_FIRST = ("e2e", "worker", "ui")


def _rank(item) -> int:
    tier = _tier(Path(item.path))
    return LONGEST_FIRST.index(tier) if tier in LONGEST_FIRST else len(LONGEST_FIRST)


def pytest_collection_finish(session):
    """Everything imported and collected lives for the whole run: moved out of the collector's
    reach, so that its full collections do not walk Textual, JAX's Python side and every test
    module again and again (the fast tier: 15 % less CPU, 98-110 s -> 88-91 s quiet)."""
    gc.collect()
    gc.freeze()


def pytest_unconfigure(config):
    """The session is over: what is left is frozen too, so that pytest's last collections (five
    full ones, to report exceptions raised in __del__) walk nothing. Walking every test's leftover
    apps took ~2.5 s of CPU in each test process, all four at the end of the fast tier."""
    gc.freeze()


def pytest_collection_modifyitems(config, items):
    items.sort(key=_rank)  # stable: within a folder, the order of collection
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())) or _tier(Path(item.path)) in SLOW_FOLDERS:
            item.add_marker(pytest.mark.slow)
    k, _, n = config.getoption("--mutant-share").partition("/")
    k, n = int(k), int(n)
    if n <= 1:
        return
    keep, drop = [], []
    for item in items:
        path = getattr(item, "callspec", None) and item.callspec.params.get("path")
        is_mutant = isinstance(path, Path) and cases.is_mutant(path)
        share = zlib.crc32(f"{path.parent.name}/{path.name}".encode()) % n + 1 if is_mutant else k
        (keep if share == k else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
