"""The command line as scripts and people use it: real subprocesses, real JAX."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tutor.progress import changes

ROOT = Path(__file__).resolve().parents[2]

# A forged screen: clear it, draw a green PASS (CSI both as ESC [ and as the one-byte C1 0x9b),
# then a right-to-left override that would reorder what follows.
FORGED = "\x1b[2J\x1b[H\x1b[1;32mPASS all checks passed\x1b[0m \x9b2J \u202eSSAP"
RAW_CONTROLS = ("\x1b", "\x9b", "\u202e")


@pytest.fixture
def tutor(cli_env):
    """tutor(home, *args): `python -m tutor *args` on `home`, run to its end."""

    def run(home, *args, input=None, timeout=120):
        return subprocess.run(
            [sys.executable, "-m", "tutor", *args],
            capture_output=True,
            text=True,
            env=cli_env(home),
            timeout=timeout,
            input=input,
            cwd=ROOT,
        )

    return run


def test_version_and_help(tmp_path, tutor):
    assert tutor(tmp_path, "--version").stdout.startswith("jaxstate-tutor ")
    out = tutor(tmp_path, "--help").stdout
    for command in ("list", "check", "hint", "solution", "reset", "progress", "verify", "validate", "watch"):
        assert command in out


def test_list_json_contract(tmp_path, course, tutor):
    doc = json.loads(tutor(tmp_path, "list", "--json").stdout)
    # The contract's keys, plus the checkpoints and the quiz's first-try and current scores
    assert set(doc) == {"schema_version", "course", "lessons", "exercises", "quiz", "checkpoints"}
    assert [e["id"] for e in doc["exercises"]] == [e.id for e in course.exercises]
    assert all(set(e) == {"id", "lesson", "title", "status"} and e["status"] == "new" for e in doc["exercises"])
    assert doc["quiz"] == {"questions": 8, "answered": 0, "best_score": None, "first_score": None, "score": 0}
    assert [c["lesson"] for c in doc["checkpoints"]] == [c.lesson for c in course.checkpoints]
    assert all(c["status"] == "new" and c["first_score"] is None for c in doc["checkpoints"])


@pytest.mark.slow  # starts a worker
def test_check_workspace_starter_fails_then_solution_passes(tmp_path, course, tutor):
    from tutor.progress import ProgressStore

    # The learner has worked on it before, and the file is gone (a program that deleted itself):
    # it is written again from the starter, and that is said.
    ProgressStore(tmp_path).apply(changes.attempt, "counter-jit", False)
    proc = tutor(tmp_path, "check", "counter-jit", "--json")
    assert proc.returncode == 1, proc.stderr
    assert "was missing" in proc.stderr and "starter" in proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["exercise"] == "counter-jit" and doc["status"] == "fail"
    assert {"exercise", "status", "checks", "stdout", "stderr", "duration_s", "metrics"} <= set(doc)
    assert all(set(c) >= {"id", "name", "status", "message"} for c in doc["checks"])
    assert (tmp_path / "workspace" / "counter-jit.py").read_text() == course.exercise("counter-jit").starter

    # The solution saved by a Windows editor (a UTF-8 byte-order mark, as Python itself accepts)
    # that prints a forged screen: it passes, and --json carries the output escaped, never raw.
    solution = tmp_path / "solution.py"
    solution.write_bytes(
        b"\xef\xbb\xbf" + f"print({FORGED!r})\n".encode() + (ROOT / "solutions" / "counter-jit.py").read_bytes()
    )
    proc = tutor(tmp_path, "check", "counter-jit", "--file", str(solution), "--json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["status"] == "pass" and FORGED in doc["stdout"]
    assert not any(c in proc.stdout for c in RAW_CONTROLS), proc.stdout

    progress = json.loads(tutor(tmp_path, "progress", "--json").stdout)
    record = progress["exercises"]["counter-jit"]
    assert record.pop("first_passed_at") == record.pop("last_attempt_at")  # passed at the last attempt
    assert record == {
        "status": "passed",
        "attempts": 3,
        "hints_shown": 0,
        "solution_viewed": False,
    }
    listed = json.loads(tutor(tmp_path, "list", "--json").stdout)
    assert {e["id"]: e["status"] for e in listed["exercises"]}["counter-jit"] == "passed"


@pytest.mark.slow  # starts a worker
def test_human_output_names_failing_check_and_shows_forged_screens_as_text(tmp_path, tutor):
    """A program printing escape sequences (and raising with them) cannot clear the screen and
    draw a PASS: every control sequence is shown, not obeyed; newlines and tabs stay."""
    ws = tmp_path / "workspace" / "counter-jit.py"
    ws.parent.mkdir(parents=True)
    ws.write_text(
        f"print({FORGED!r})\nprint('a\\tb')\n\n"
        f"def update_counter(count, increment):\n    raise ValueError({FORGED!r})\n"
    )
    proc = tutor(tmp_path, "check", "counter-jit", "--lang", "zh")
    assert proc.returncode == 1
    assert "未通过" in proc.stdout and "update_counter" in proc.stdout
    assert not any(c in proc.stdout + proc.stderr for c in RAW_CONTROLS), proc.stdout
    assert proc.stdout.count("␛[2J␛[H␛[1;32mPASS") >= 2, proc.stdout  # the output and the exception
    assert "\\x9b2J" in proc.stdout and "\\u202eSSAP" in proc.stdout
    assert "␉" not in proc.stdout and "\na " in proc.stdout  # the tab is kept (Rich expands it to spaces)


@pytest.mark.parametrize(
    "args",
    [
        ("check", "no-such-exercise"),
        ("hint", "nope"),
        ("solution", "nope"),
        ("reset", "nope"),
        ("check",),
        ("--bogus-flag",),
        ("check", "counter-jit", "--timeout", "x"),
        ("check", "counter-jit", "--timeout", "nan"),
        ("check", "counter-jit", "--timeout", "-2"),
        ("watch", "counter-jit", "--interval", "-1"),
        ("watch", "counter-jit", "--timeout", "inf"),
    ],
)
def test_bad_usage_exits_2(tmp_path, args, tutor):
    proc = tutor(tmp_path, *args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "content, needle",
    [
        (None, "not found"),
        (b"\x00\x01binary", "binary"),
        (b"x = '\xff\xfe'\n", "UTF-8"),
        (b"#" * 2_000_000, "kB"),
        ("/dev/zero", "device"),  # st_size 0, never ends
        ("fifo", "pipe"),  # no writer: opening it would block forever
        ("link", "does not exist"),  # a dangling symbolic link
    ],
    ids=["missing", "binary", "not-utf8", "too-big", "dev-zero", "fifo", "dangling-link"],
)  # ids short: pytest puts them in the environment
def test_bad_learner_file_exits_2(tmp_path, content, needle, tutor):
    path = tmp_path / "learner.py"
    if content == "/dev/zero":
        path = "/dev/zero"
    elif content == "fifo":
        os.mkfifo(path)
    elif content == "link":
        path.symlink_to(tmp_path / "gone.py")
    elif content is not None:
        path.write_bytes(content)
    proc = tutor(tmp_path, "check", "counter-jit", "--file", str(path), timeout=30)
    assert proc.returncode == 2 and needle in proc.stderr and "Traceback" not in proc.stderr


def test_hints_progress_and_solution(tmp_path, tutor):
    first = tutor(tmp_path, "hint", "counter-jit").stdout
    second = tutor(tmp_path, "hint", "counter-jit").stdout
    assert "Hint 1 of" in first and "Hint 2 of" in second
    proc = tutor(tmp_path, "solution", "counter-jit")  # not a TTY: no prompt, and stderr says so
    assert "def update_counter" in proc.stdout and "no terminal to ask" in proc.stderr
    rec = json.loads(tutor(tmp_path, "progress", "--json").stdout)["exercises"]["counter-jit"]
    assert rec["hints_shown"] == 2 and rec["solution_viewed"] is True


def test_progress_lists_predictions_beside_the_contract_keys(tmp_path, tutor):
    from tutor.progress import ProgressStore

    store = ProgressStore(tmp_path)
    store.apply(changes.prediction, "l61-global-write", "3")
    store.apply(changes.reveal, "l61-global-write", "1", False)
    store.apply(changes.prediction, "l64-leaves-order", "B")
    doc = json.loads(tutor(tmp_path, "progress", "--json").stdout)
    assert {"exercises", "lessons", "quiz"} <= doc.keys()
    assert doc["predictions"] == {
        "l61-global-write": {"answer": "3", "shown": "1", "correct": False},
        "l64-leaves-order": {"answer": "B", "shown": None, "correct": None},
    }
    assert "Predictions: 0 of 2 right" in tutor(tmp_path, "progress").stdout


@pytest.mark.slow  # starts a worker
def test_reset_keeps_a_backup(tmp_path, course, tutor):
    tutor(tmp_path, "check", "counter-jit")
    ws = tmp_path / "workspace" / "counter-jit.py"
    ws.write_text("# my work\n")
    proc = tutor(tmp_path, "reset", "counter-jit")
    assert proc.returncode == 0
    assert ws.read_text() == course.exercise("counter-jit").starter
    backups = list((tmp_path / "workspace" / ".backup").glob("counter-jit-*.py"))
    assert [b.read_text() for b in backups] == ["# my work\n"]


def _unusable_home(kind, tmp_path, stack, read_only):
    """A home that cannot hold the workspace file, as a learner could end up with one."""
    home = tmp_path / "home"
    if kind == "a file":
        home.write_text("not a folder\n")
    elif kind == "dangling link":
        (home / "workspace").mkdir(parents=True)
        (home / "workspace" / "counter-jit.py").symlink_to(tmp_path / "moved-away" / "counter-jit.py")
    elif kind == "read-only":
        home.mkdir()
        stack.enter_context(read_only(home))  # as root, chmod would not stop a write; a read-only mount does
    return home


@pytest.mark.parametrize(
    "kind, needle",
    [("a file", "is --home a file?"), ("dangling link", "symbolic link"), ("read-only", "Read-only file system")],
)
def test_unusable_home_is_a_plain_message(tmp_path, kind, needle, cli_env, read_only):
    """check, reset and watch say what is wrong with the home (exit 2), with no traceback and before
    any worker starts."""
    from contextlib import ExitStack

    with ExitStack() as stack:
        home = _unusable_home(kind, tmp_path, stack, read_only)
        commands = ("check", "reset", "watch")
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "tutor", command, "counter-jit"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=cli_env(home),
                cwd=ROOT,
            )
            for command in commands
        ]  # side by side: each mostly waits on loading the course
        for command, proc in zip(commands, procs):
            try:
                _, err = proc.communicate(timeout=60)
            finally:
                proc.kill()
            assert proc.returncode == 2, (command, err)
            assert needle in err and "Traceback" not in err, (command, err)


def test_reset_on_a_full_disk_keeps_the_code(tmp_path, tutor, fill, tmpfs):
    """The starter replaces the old code in one step: with no space left, the old code stays whole."""
    with tmpfs(tmp_path / "home", size_kb=64) as home:
        ws = home / "workspace" / "counter-jit.py"
        ws.parent.mkdir()
        mine = "".join(f"x_{i} = {i}  # my work, line {i}\n" for i in range(110))
        ws.write_text(mine)
        fill(home)
        proc = tutor(home, "reset", "counter-jit", timeout=30)
        assert proc.returncode == 2 and "No space left" in proc.stderr and "Traceback" not in proc.stderr
        assert ws.read_text() == mine
        assert not list(ws.parent.glob(".*.tmp"))  # no temp file left behind either


def test_a_long_held_progress_lock_is_waited_for_and_named(tmp_path, cli_env):
    """Another process holding progress.lock: hint says what it waits for, then goes on once freed."""
    import fcntl

    tmp_path.mkdir(exist_ok=True)
    with open(tmp_path / "progress.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = subprocess.Popen(
            [sys.executable, "-m", "tutor", "hint", "counter-jit"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env(tmp_path),
            cwd=ROOT,
        )
        try:
            ready, _, _ = select.select([proc.stderr], [], [], 20)
            waiting = proc.stderr.readline() if ready else "(nothing said in 20 s)"
            if "open to other users" in waiting:  # the lock made here is 0644: the tutor makes it private first
                ready, _, _ = select.select([proc.stderr], [], [], 20)
                waiting = proc.stderr.readline() if ready else "(nothing said in 20 s)"
        except BaseException:
            proc.kill()
            raise
        if not ready:
            proc.kill()
        assert "waiting for" in waiting and "progress.lock" in waiting and str(os.getpid()) in waiting, waiting
        time.sleep(0.5)
        assert proc.poll() is None  # still waiting, not given up yet
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Hint 1 of" in out, err
    assert json.loads((tmp_path / "progress.json").read_text())["exercises"]["counter-jit"]["hints_shown"] == 1


def test_chinese_on_an_ascii_stdout_is_escaped_not_a_traceback(tmp_path, cli_env):
    env = {**cli_env(tmp_path), "PYTHONIOENCODING": "ascii"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tutor", "--lang", "zh", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        for args in (("hint", "counter-jit"), ("list", "--json"))
    ]
    outs = []
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0 and "Traceback" not in err, err
        outs.append(out)
    assert "\\u63d0\\u793a 1/" in outs[0]  # 提示 1/…, readable as escapes
    doc = json.loads(outs[1])  # still JSON, with \u escapes: the same titles
    assert not doc["lessons"][0]["title"].isascii()


def test_home_flag_and_env_agree(tmp_path, cli_env):
    a, b = tmp_path / "a", tmp_path / "b"
    proc = subprocess.run(
        [sys.executable, "-m", "tutor", "--home", str(b), "hint", "counter-jit"],
        capture_output=True,
        text=True,
        env=cli_env(a),
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0
    assert (b / "progress.json").exists() and not (a / "progress.json").exists()


def _line_reader(proc):
    """The process's output lines on a queue, so that waiting for one has a deadline."""
    import queue
    import threading

    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()
    return lines


def _wait_for_line(lines, seen: list, needle: str, deadline: float) -> bool:
    import queue

    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            continue
        seen.append(line)
        if needle in line:
            return True
    return False


@pytest.mark.slow  # starts a worker
def test_watch_rechecks_on_save(tmp_path, tutor, cli_env):
    ws = tmp_path / "workspace" / "counter-jit.py"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tutor", "watch", "counter-jit", "--interval", "0.2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=cli_env(tmp_path),
        cwd=ROOT,
    )
    try:
        lines, seen = _line_reader(proc), []
        deadline = time.monotonic() + 90
        assert _wait_for_line(lines, seen, "FAIL", deadline), "".join(seen)
        ws.write_text((ROOT / "solutions" / "counter-jit.py").read_text() + "\n# saved\n")
        assert _wait_for_line(lines, seen, "PASS", deadline), "".join(seen)
        # A program that deletes its own file: watch writes back what it checked last and says so,
        # without checking again (a program doing that on every run would loop).
        checked = ws.read_text()
        ws.unlink()
        assert _wait_for_line(lines, seen, "was deleted", time.monotonic() + 60), "".join(seen)  # a ceiling
        assert ws.read_text() == checked
        time.sleep(1)
        proc.send_signal(signal.SIGINT)  # Ctrl+C
        assert proc.wait(timeout=30) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
    attempts = json.loads(tutor(tmp_path, "progress", "--json").stdout)["exercises"]["counter-jit"]["attempts"]
    assert attempts == 2


def test_tui_refuses_dumb_terminal(tmp_path, cli_env):
    env = cli_env(tmp_path)
    env["TERM"] = "dumb"
    proc = subprocess.run(
        [sys.executable, "-m", "tutor"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60
    )
    assert proc.returncode == 2 and "jaxstate-tutor list" in proc.stderr


@pytest.mark.slow  # starts a worker
def test_workers_use_the_cpu_unless_asked(tmp_path):
    from tutor.course.model import Cell
    from tutor.sandbox.runner import Sandbox

    probe = Cell(id="platforms", code="import os\nprint('platforms=' + os.environ.get('JAX_PLATFORMS', '<unset>'))")
    box = Sandbox(tmp_path)
    try:
        assert "platforms=cpu" in box.run_cell(probe).result().stdout
    finally:
        box.close()
    # Asked: a check's worker gets the learner's own JAX_PLATFORMS; a lesson's cells stay on the
    # CPU, where their output was written (runner.Sandbox._cell_box).
    from tutor.course import load_course

    course = load_course()
    exercise = course.exercise("counter-jit")
    source = probe.code + "\n" + course.solution_path("counter-jit").read_text()
    opted = Sandbox(tmp_path, accelerator=True)
    try:
        checked = opted.run_exercise(exercise, source, "counter-jit.py").result().stdout
        cell = opted.run_cell(probe).result().stdout
    finally:
        opted.close()
    import os

    assert checked.strip() == "platforms=" + os.environ.get("JAX_PLATFORMS", "<unset>")
    assert cell.strip() == "platforms=cpu"


@pytest.mark.slow  # starts a worker
def test_check_json_is_strict_json_even_when_the_loss_diverges(tmp_path, tutor):
    """A learner's RMSProp that blows up streams NaN/inf losses; the JSON must stay parseable."""
    diverging = tmp_path / "rmsprop.py"
    diverging.write_text(
        (ROOT / "solutions" / "rmsprop.py").read_text()
        + """
import jax as _jax
_good = rmsprop

def rmsprop(lr, rho=0.9, eps=1e-8):
    opt = _good(lr, rho, eps)

    def update(grads, state, params=None):
        updates, state = opt.update(grads, state, params)
        return _jax.tree.map(lambda u: u * 1e30, updates), state

    return type(opt)(opt.init, update)
"""
    )
    proc = tutor(tmp_path, "check", "rmsprop", "--file", str(diverging), "--json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout, parse_constant=lambda name: pytest.fail(f"non-standard JSON constant {name}"))
    assert doc["status"] == "fail"
    losses = doc["metrics"]["loss"]
    assert None in losses, "the diverging run should have produced non-finite losses"


def test_accelerator_is_asked_for_by_the_flag_or_the_variable_and_reaches_the_sandbox(tmp_path, monkeypatch):
    """The command line reads --accelerator and JAXSTATE_TUTOR_ACCELERATOR once; the sandbox is
    told by an argument, never by the environment the CLI changed."""
    from tutor.cli.main import Context, _parser

    monkeypatch.delenv("JAXSTATE_TUTOR_ACCELERATOR", raising=False)
    home = ["--home", str(tmp_path)]
    assert not Context(_parser().parse_args([*home, "list"])).accelerator
    flagged = Context(_parser().parse_args([*home, "--accelerator", "list"]))
    assert flagged.accelerator and "JAXSTATE_TUTOR_ACCELERATOR" not in os.environ
    box = flagged.sandbox()
    try:
        assert box.accelerator is True
    finally:
        box.close()
    monkeypatch.setenv("JAXSTATE_TUTOR_ACCELERATOR", "1")
    assert Context(_parser().parse_args([*home, "list"])).accelerator


def test_progress_and_list_speak_each_language_whole(tmp_path, course, tutor):
    """The human-readable `progress` and `list` in English and in Chinese, line by line as a
    learner reads them (their words come from the CLI's message table)."""
    from tutor.progress import ProgressStore

    store = ProgressStore(tmp_path)
    store.apply(changes.attempt, "counter-jit", False)
    store.apply(changes.attempt, "counter-jit", True)
    store.apply(changes.hint, "pure-scale", 2)
    store.apply(changes.solution_viewed, "pure-scale")
    store.apply(changes.prediction, "l61-global-write", "3")
    store.apply(changes.reveal, "l61-global-write", "3", True)
    store.apply(changes.answer, course.quiz[0].id, "A", False, True)
    store.apply(changes.quiz_result, 0)
    lines = {lang: tutor(tmp_path, "--lang", lang, "progress").stdout.splitlines() for lang in ("en", "zh")}
    assert lines["en"][0] == "JAX state tutor"  # the course's own title (lessons/course.yaml)
    assert lines["en"][1].startswith("Exercises passed: 1/")
    assert "  pure-scale           new        attempts: 0, hints: 2, solution viewed" in lines["en"]
    assert "  counter-jit          passed     attempts: 2, hints: 0" in lines["en"]
    quiz = lines["en"].index("Quiz: now 0/8; rounds taken: 1")  # no "1 rounds"
    assert lines["en"][quiz + 1] == "Predictions: 1 of 1 right"
    # the wrong quiz answer is a misconception still shown, named with where to review it
    assert lines["en"][quiz + 2].startswith("Misconceptions your answers still show: 1 of the 1")
    assert lines["en"][-1].strip().startswith("review lesson ")
    assert lines["zh"][0] == "JAX 状态管理教程"
    assert lines["zh"][1].startswith("练习：通过 1/")
    assert "  pure-scale           new        尝试 0 次，提示 2 条，看过答案" in lines["zh"]
    assert "  counter-jit          passed     尝试 2 次，提示 0 条" in lines["zh"]
    quiz = lines["zh"].index("测验：现在 0/8，作答 1 轮")
    assert lines["zh"][quiz + 1] == "预测：1 次，猜对 1 次"
    assert lines["zh"][quiz + 2].startswith("你的答案仍显示出的误解：测到的 1 个中有 1 个")
    assert lines["zh"][-1].strip().startswith("复习第 ")
    assert tutor(tmp_path, "--lang", "en", "list").stdout.splitlines()[-1] == "Quiz: 1/8 answered, now 0/8"
    assert tutor(tmp_path, "--lang", "zh", "list").stdout.splitlines()[-1] == "测验：已答 1/8，现在 0/8"


def test_the_command_line_has_no_inline_language_branch():
    """Its words live in tutor/cli/texts.py: no `lang == "zh"` (or "en") test in its code."""
    import ast

    found = []
    for path in sorted((ROOT / "tutor" / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(
                isinstance(side, ast.Constant) and side.value in ("zh", "en") for side in [node.left, *node.comparators]
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
