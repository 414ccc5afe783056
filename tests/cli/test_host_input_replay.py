"""The replay of the earlier rounds' host and input faults (issues 12, 24, 40): odd homes, numbers
too large for a timer, locks and temporary files that are not files, special files where the tutor
reads, closed streams. Each is triggered as a learner's shell would, through the real command line;
each must end with a named message in the learner's language and no traceback, or hold as it once
did. Issue 50 found 9 of 25 broken again: this file is their guard, one case each, run together.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = ROOT / "solutions" / "counter-jit.py"


@dataclass
class Fault:
    """One fault: what the home looks like, what the learner types, and what they must be told."""

    words: tuple[str, ...]  # after `jaxstate-tutor`; {home} and {tmp} are filled in
    said: tuple[str, ...]  # each must appear in stdout + stderr (English)
    codes: tuple[int, ...] = (2,)
    zh: str | None = None  # with --lang zh, this must appear instead
    prepare: Callable[[Path, Path], None] = lambda home, tmp: None
    after: Callable[[Path, Path], None] = lambda home, tmp: None  # what must hold afterwards
    stdin_closed: bool = False
    env: dict = field(default_factory=dict)
    slow: bool = False  # starts a worker (JAX): not in the fast tier


def _mkfifo(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)


def _folder(path: Path) -> None:
    path.mkdir(parents=True)


def _home_is_file(home: Path, tmp: Path) -> None:
    home.write_text("not a folder\n")


def _dangling(home: Path, tmp: Path) -> None:
    home.symlink_to(tmp / "gone" / "nowhere")


def _big_progress(home: Path, tmp: Path) -> None:
    home.mkdir()
    (home / "progress.json").write_bytes(b'{"exercises": {}, "pad": "' + b"x" * (17 << 20) + b'"}')


def _bom_progress(home: Path, tmp: Path) -> None:
    home.mkdir()
    doc = {"schema": 1, "exercises": {"counter-jit": {"status": "passed", "attempts": 1}}}
    (home / "progress.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(doc).encode())


def _twice_progress(home: Path, tmp: Path) -> None:
    home.mkdir()
    (home / "progress.json").write_text(
        '{"schema": 1, "exercises": {"counter-jit": {"status": "passed", "attempts": 2}},'
        ' "exercises": {"scan-steps": {"status": "attempted", "attempts": 1}}}'
    )


def _progress_kept_whole(home: Path, tmp: Path) -> None:
    assert (home / "progress.json").stat().st_size > 17 << 20  # nothing written over what could not be read


def _fifo_left(name: str) -> Callable[[Path, Path], None]:
    return lambda home, tmp: (home / name).is_fifo() or pytest.fail(f"{name} was replaced")


def _script(home: Path, tmp: Path) -> None:
    (tmp / "s.py").write_text("print('hi')\n")


def _deleted_cwd(home: Path, tmp: Path) -> None:
    _script(home, tmp)


def _bom_solution(home: Path, tmp: Path) -> None:
    (tmp / "bom.py").write_bytes(b"\xef\xbb\xbf" + SOLUTION.read_bytes())  # an editor's save: Python reads it


def _deletes_itself(home: Path, tmp: Path) -> None:
    (home / "workspace").mkdir(parents=True)
    (home / "workspace" / "counter-jit.py").write_text("import os\nos.remove(__file__)\n" + SOLUTION.read_text())


def _learner_fifo(home: Path, tmp: Path) -> None:
    _mkfifo(home / "workspace" / "counter-jit.py")


FAULTS: dict[str, Fault] = {
    # ---- homes ----
    "home-a-file": Fault(("hint", "counter-jit"), ("{home} is a file, not a folder",), (0, 2), prepare=_home_is_file),
    "home-a-file-check": Fault(("check", "counter-jit"), ("is --home a file?",), (2,), prepare=_home_is_file),
    "home-dangling-link": Fault(
        ("hint", "counter-jit"),
        ("{home} is a symbolic link to {tmp}/gone/nowhere, which does not exist",),
        (0,),
        zh="的符号链接，而目标不存在",
        prepare=_dangling,
    ),
    "home-dangling-link-check": Fault(
        ("check", "counter-jit"),
        ("{home} is a symbolic link to {tmp}/gone/nowhere, which does not exist",),
        prepare=_dangling,
    ),
    "home-no-such-user": Fault(
        ("--home", "~nosuchuser50/h", "list"), ("~nosuchuser50/h: there is no such user",), zh="没有这个用户"
    ),
    "home-empty-word": Fault(("--home", "", "list"), ("an empty word names no folder",), zh="空字符串不是任何文件夹"),
    "home-empty-word-doctor": Fault(
        ("doctor", "{tmp}/s.py", "--home", ""), ("an empty word names no folder",), prepare=_script
    ),
    "home-escapes": Fault(
        ("--home", "{tmp}/h\x1b[2J/x", "hint", "counter-jit"),
        ("h␛[2J",),
        (0, 2),
        prepare=lambda h, t: (t / "h\x1b[2J").write_text("a file"),
    ),
    # ---- numbers too large for a timer, and not numbers ----
    "timeout-1e12": Fault(("check", "counter-jit", "--timeout", "1e12"), ("at most 604800",), zh="不超过 604800"),
    "timeout-nan": Fault(("check", "counter-jit", "--timeout", "nan"), ("above 0",)),
    "timeout-zero": Fault(("check", "counter-jit", "--timeout", "0"), ("above 0",)),
    "timeout-inf": Fault(("check", "counter-jit", "--timeout", "inf"), ("at most 604800",)),
    "timeout-negative": Fault(("check", "counter-jit", "--timeout=-1"), ("above 0",)),
    "interval-negative": Fault(("watch", "counter-jit", "--interval=-1"), ("above 0",)),
    "interval-1e10": Fault(("watch", "counter-jit", "--interval", "1e10"), ("at most 604800",)),
    "doctor-timeout-1e12": Fault(("doctor", "{tmp}/s.py", "--timeout", "1e12"), ("at most 604800",), prepare=_script),
    "grade-timeout-1e12": Fault(("grade", "{tmp}", "--timeout", "1e12"), ("at most 604800",)),
    # ---- locks and temporary files that are not files ----
    "lock-a-fifo": Fault(
        ("hint", "counter-jit"),
        ("progress.lock is not a regular file",),
        (0,),
        prepare=lambda h, t: _mkfifo(h / "progress.lock"),
        after=_fifo_left("progress.lock"),
    ),
    "lock-a-folder": Fault(
        ("hint", "counter-jit"),
        ("{home}/progress.lock is a folder, where the tutor keeps a file",),
        (0,),
        zh="是一个文件夹",
        prepare=lambda h, t: _folder(h / "progress.lock"),
    ),
    "tmp-a-folder": Fault(
        ("hint", "counter-jit"),
        ("{home}/progress.json.tmp is a folder, where the tutor keeps a file",),
        (0,),
        prepare=lambda h, t: _folder(h / "progress.json.tmp"),
    ),
    # ---- special files where the tutor reads ----
    "progress-a-fifo": Fault(
        ("list",), ("a pipe (FIFO), not a regular file",), (0,), prepare=lambda h, t: _mkfifo(h / "progress.json")
    ),
    "progress-a-folder": Fault(
        ("list",), ("a folder, not a regular file",), (0,), prepare=lambda h, t: _folder(h / "progress.json")
    ),
    "progress-too-large": Fault(
        ("hint", "counter-jit"), ("more than the 16 MiB",), (0,), prepare=_big_progress, after=_progress_kept_whole
    ),
    "progress-with-bom": Fault(("progress",), ("1/",), (0,), prepare=_bom_progress),
    "progress-key-twice": Fault(("list",), ("exercises",), (0,), prepare=_twice_progress),
    "file-too-large": Fault(
        ("check", "counter-jit", "--file", "{tmp}/big.py"),
        ("big.py",),
        prepare=lambda h, t: (t / "big.py").write_bytes(b"#" * 2_000_001),
    ),
    "file-dev-zero": Fault(("check", "counter-jit", "--file", "/dev/zero"), ("/dev/zero",)),
    "file-a-fifo": Fault(
        ("check", "counter-jit", "--file", "{tmp}/pipe.py"), ("pipe.py",), prepare=lambda h, t: _mkfifo(t / "pipe.py")
    ),
    "learner-file-with-bom": Fault(
        ("check", "counter-jit", "--file", "{tmp}/bom.py"), ("PASS",), (0,), prepare=_bom_solution, slow=True
    ),
    "learner-file-deletes-itself": Fault(
        ("check", "counter-jit"),
        ("your program deleted its own file while it ran",),
        (0, 1),
        prepare=_deletes_itself,
        slow=True,
        after=lambda h, t: (h / "workspace" / "counter-jit.py").is_file() or pytest.fail("the learner's file is gone"),
    ),
    "learner-file-a-fifo": Fault(("check", "counter-jit"), ("counter-jit.py",), (1, 2), prepare=_learner_fifo),
    # ---- streams and folders the shell took away ----
    "stdin-closed": Fault(("solution", "counter-jit"), ("no terminal to ask",), (0,), stdin_closed=True),
    "ascii-terminal-zh": Fault(
        ("--lang", "zh", "hint", "counter-jit"), ("\\u",), (0,), env={"PYTHONIOENCODING": "ascii"}
    ),
}


def run(home: Path, tmp: Path, fault: Fault, lang: str = "en") -> subprocess.CompletedProcess:
    words = [w.format(home=home, tmp=tmp) for w in fault.words]
    env = dict(os.environ, JAXSTATE_TUTOR_LANG=lang, PYTHONPATH=str(ROOT), **fault.env)
    if "--home" not in words:
        env["JAXSTATE_TUTOR_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "tutor", *(["--lang", lang] if lang == "zh" else []), *words],
        env=env,
        cwd=tmp,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL if not fault.stdin_closed else None,
        preexec_fn=(lambda: os.close(0)) if fault.stdin_closed else None,
    )


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[pytest.mark.slow] if FAULTS[n].slow else []) for n in sorted(FAULTS)]
)
def test_each_fault_gets_its_named_message(tmp_path, name):
    fault = FAULTS[name]
    home = tmp_path / "home"
    fault.prepare(home, tmp_path)
    done = run(home, tmp_path, fault)
    said = done.stdout + done.stderr
    assert "Traceback" not in said and "\x1b" not in said, said
    assert done.returncode in fault.codes, (done.returncode, said)
    for words in fault.said:
        assert words.format(home=home, tmp=tmp_path) in said, said
    fault.after(home, tmp_path)
    assert not (tmp_path / "progress.json").exists(), "progress written into the current folder"


@pytest.mark.parametrize("name", sorted(n for n, f in FAULTS.items() if f.zh))
def test_each_message_is_said_in_chinese_too(tmp_path, name):
    fault = FAULTS[name]
    home = tmp_path / "home"
    fault.prepare(home, tmp_path)
    done = run(home, tmp_path, fault, lang="zh")
    assert "Traceback" not in done.stderr and fault.zh in done.stdout + done.stderr, done.stdout + done.stderr


@pytest.mark.slow  # a real check under watch
def test_watch_on_a_home_whose_path_holds_markup_watches_and_ends_on_ctrl_c(tmp_path):
    """`[/x]` in the home's path killed `watch` with Rich's MarkupError before its first check."""
    home = tmp_path / "a[/x]b[bold]"
    env = dict(os.environ, JAXSTATE_TUTOR_HOME=str(home), JAXSTATE_TUTOR_LANG="en", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tutor", "watch", "counter-jit"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    seen = ""
    try:
        deadline = time.monotonic() + 120
        assert proc.stdout is not None
        while time.monotonic() < deadline and "FAIL" not in seen:
            line = proc.stdout.readline()
            if not line:
                break
            seen += line
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    seen += rest
    assert "Traceback" not in seen and "MarkupError" not in seen, seen
    assert f"{home}/workspace/counter-jit.py" in seen and "FAIL" in seen, seen
    assert proc.returncode == 130


def test_doctor_from_a_deleted_folder_says_so(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    _script(tmp_path, tmp_path)
    env = dict(os.environ, JAXSTATE_TUTOR_HOME=str(tmp_path / "home"), JAXSTATE_TUTOR_LANG="en", PYTHONPATH=str(ROOT))
    code = f"import os, runpy, sys; os.chdir({str(gone)!r}); os.rmdir({str(gone)!r}); "
    code += f"sys.argv = ['jaxstate-tutor', 'doctor', {str(tmp_path / 's.py')!r}]; runpy.run_module('tutor', run_name='__main__')"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "the current folder no longer exists" in out.stderr and "Traceback" not in out.stderr
