"""`jaxstate-tutor doctor` as a learner runs it: a real CLI process, a real worker, real scripts.

Usage errors and the text report's words need no worker; everything else (marked slow) starts
one: exit codes, the JSON contract, the script's output passing through, a script that crashes,
hangs (time limit) or floods its output, and Ctrl+C (a real SIGINT) still printing the report.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.doctor import options, wording
from tutor.doctor.findings import Report
from tutor.doctor.report_json import report_json
from tutor.doctor.report_text import render_text
from tutor.protocol import Finding, TraceCount

ROOT = Path(__file__).resolve().parents[2]
TAUGHT = read_course(ROOT)[0].teachings()  # the shipped course's cells' `teaches:`
SCRIPTS = ROOT / "tests" / "doctor"
CONTRACT_KEYS = {"schema_version", "script", "status", "exit_code", "duration_s", "findings", "stdout", "stderr"}
FINDING_KEYS = {"kind", "function", "file", "line", "count", "message", "lesson", "cell"}
CJK = re.compile(r"[\u4e00-\u9fff]")


def doctor(home: Path, *args: str, timeout: float = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tutor", "doctor", *args],
        capture_output=True,
        text=True,
        env=env or _env(home),
        cwd=ROOT,
        timeout=timeout,
    )


def _env(home: Path) -> dict:
    import os

    env = dict(os.environ, JAXSTATE_TUTOR_HOME=str(home), JAXSTATE_TUTOR_LANG="en", PYTHONPATH=str(ROOT))
    env.pop("JAX_DISABLE_JIT", None)
    return env


def write(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


# ---- no worker --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target, says",
    [
        ("missing.py", "does not exist"),
        (".", "is a folder"),
        ("README.md", "not a Python script"),
    ],
    ids=["missing", "folder", "not-py"],
)
def test_bad_scripts_are_usage_errors(tmp_path, target, says):
    done = doctor(tmp_path, str(ROOT / target) if target != "missing.py" else str(tmp_path / target))
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_a_bad_time_limit_is_a_usage_error(tmp_path):
    script = SCRIPTS / "clean_scan_training.py"
    for args in (["--timeout", "0", str(script)], [str(script), "--timeout", "soon"]):
        done = doctor(tmp_path, *args)
        assert done.returncode == 2, (args, done.stderr)
        assert "Traceback" not in done.stderr


def _asked(*words: str) -> options.DoctorOptions:
    """The options as the command line reads them: its argparse, then the one doctor parser."""
    from tutor.cli.doctor import options_of
    from tutor.cli.main import _parser

    return options_of(_parser().parse_args(["doctor", *words]))


def test_doctor_options_after_the_script_and_the_script_own_after_a_double_dash():
    asked = _asked("train.py", "--epochs", "3", "--json", "--timeout", "5", "--", "--json")
    assert asked.args == ("--epochs", "3", "--json") and asked.json and asked.timeout_s == 5.0
    assert (asked.script.name, asked.nans, asked.lang) == ("train.py", False, None)


@pytest.mark.parametrize(
    "words, script_args",
    [
        (["s.py", "--", "--lr", "0.5", "--timeout", "5"], ("--lr", "0.5", "--timeout", "5")),  # the bug
        (["s.py", "--lr", "0.5", "--", "--nans", "--", "x"], ("--lr", "0.5", "--nans", "--", "x")),
        (["--timeout", "5", "--", "s.py", "--json"], ("--json",)),
        (["--json", "s.py", "-"], ("-",)),
    ],
    ids=["double-dash-first", "double-dash-later", "before-the-script", "a-dash"],
)
def test_everything_after_a_double_dash_is_the_scripts(words, script_args):
    asked = _asked(*words)
    assert asked.script.name == "s.py" and asked.args == script_args
    assert options.parse(words) == asked  # the TUI's command field reads the same words alike


def test_the_doctors_own_options_wherever_they_stand():
    before = _asked("--json", "--timeout=7", "--nans", "s.py", "--epochs", "2")
    after = _asked("s.py", "--epochs", "2", "--timeout", "7", "--nans", "--json")
    assert before == after and after.args == ("--epochs", "2") and after.timeout_s == 7.0
    assert _asked("--lang", "zh", "s.py").lang is None  # before SCRIPT, the global option (ctx.lang)
    assert _asked("s.py", "--lang", "zh").lang == "zh"
    assert _asked("s.py").timeout_s == options.DEFAULT_TIMEOUT_S


@pytest.mark.parametrize(
    "words, script_args, nans, json_",
    [
        (["s.py", "--nans", "drop"], ("--nans", "drop"), False, False),  # the issue's: the script's own --nans
        (["s.py", "--json", "--epochs", "2"], ("--json", "--epochs", "2"), False, False),
        (["s.py", "--nans", "drop", "--nans"], ("--nans", "drop"), True, False),
        (["s.py", "--lr", "1", "--json", "--", "--json"], ("--lr", "1", "--json"), False, True),
    ],
    ids=["script-nans", "script-json-first", "ours-at-the-end", "ours-before-double-dash"],
)
def test_a_doctor_option_followed_by_a_script_word_is_the_scripts(words, script_args, nans, json_):
    asked = _asked(*words)
    assert (asked.args, asked.nans, asked.json) == (script_args, nans, json_)
    assert options.parse(words) == asked


def test_dash_m_runs_a_module_with_every_word_after_it_the_scripts():
    asked = _asked("--json", "-m", "pkg.train", "--lr", "0.5", "--timeout", "5")
    assert (asked.module, asked.args, asked.json, asked.timeout_s) == ("pkg.train", ("--lr", "0.5"), True, 5.0)
    assert options.parse(["--json", "-m", "pkg.train", "--lr", "0.5", "--timeout", "5"]) == asked
    with pytest.raises(options.OptionsError) as caught:
        options.parse(["-m"])
    assert "-m needs the name of a module" in caught.value.message.en


@pytest.mark.parametrize(
    "words, says",
    [
        ([], "give the Python script"),
        (["--"], "give the Python script"),
        (["s.py", "--timeout"], "--timeout needs a value"),
        (["s.py", "--timeout", "nan"], "above 0"),
        (["s.py", "--lang", "fr"], "en or zh"),
        (["--epochs", "3", "s.py"], "--epochs is not an option of doctor"),
    ],
)
def test_words_that_make_no_run_say_why_in_both_languages(words, says):
    with pytest.raises(options.OptionsError) as caught:
        options.parse(words)
    assert says in caught.value.message.en and CJK.search(caught.value.message.zh)


def test_bad_words_are_usage_errors_without_a_worker(tmp_path):
    for words, says in ((["--epochs", "3", "x.py"], "unrecognized arguments"), (["x.py", "--lang", "fr"], "en or zh")):
        done = doctor(tmp_path, *words)
        assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr


def _report() -> Report:
    report = Report(
        "train.py",
        exit_code=0,
        duration_s=2.5,
        findings=[
            Finding("side-effect", "global", "train.py", 14, function="train_step", name="step_count"),
            Finding("key-reuse", "reused", "train.py", 30, function="train_step", count=49, first_line=29),
            Finding("host-sync", "per-step", "train.py", 33, function="train_step", count=50, via=("float()",)),
        ],
        traces=(TraceCount("train_step", 12, 1),),
    )
    report.decide_status(failed=False)
    return report


def test_the_text_report_says_what_where_how_often_why_and_which_lesson_in_english():
    text = render_text(_report(), "en", titles={"6.3": "Stateful counters"}, taught=TAUGHT)
    assert "3 findings:" in text and "ended normally" in text
    assert "train.py:14  [side-effect]  train_step  1×" in text
    assert "train.py:33  [host-sync]  train_step  50×" in text
    assert "The global `step_count` was rebound while `train_step` was being traced." in text
    assert "Why it costs you: That assignment ran once, at trace time" in text
    assert "Fix shown in lesson 6.3 “Stateful counters”, demo cell l63-functional-counter." in text
    assert "Open it: run `jaxstate-tutor`, press Ctrl+P and type 6.3" in text
    assert not CJK.search(text)


def test_the_count_of_findings_reads_as_a_sentence():
    report = _report()
    assert "3 findings:" in render_text(report, "en")
    report.findings = report.findings[:1]
    assert "\n1 finding:\n" in render_text(report, "en") and "发现 1 个问题：" in render_text(report, "zh")
    report.findings = []
    report.decide_status(failed=False)
    assert "No findings: nothing the chapter warns about was seen." in render_text(report, "en")


def test_no_findings_when_no_jitted_function_of_the_script_was_seen_says_so():
    # the flax MNIST example: "No findings" while nothing of the learner's was watched
    report = Report("main.py", exit_code=0, duration_s=1.0)
    report.decide_status(failed=False)
    for lang in ("en", "zh"):
        said = render_text(report, lang)
        assert "main.py" in said.splitlines()[2] and "jit" in said.splitlines()[2], said
    assert "no jitted function of yours (main.py and the modules beside it) was traced" in render_text(report, "en")
    assert "nothing the chapter warns about" not in render_text(report, "en")


def test_the_text_report_in_chinese():
    text = render_text(_report(), "zh", titles={"6.3": "有状态的计数器"}, taught=TAUGHT)
    assert "发现 3 个问题" in text and "脚本正常结束" in text
    assert "train.py:30  [key-reuse]  train_step  49 次" in text
    assert "`train_step` 被追踪时，全局变量 `step_count` 被重新赋值。" in text
    assert "代价：" in text and "修法见第 6.3 课《有状态的计数器》，演示单元 l63-functional-counter。" in text
    assert "findings" not in text and "Why it costs" not in text


def test_the_json_the_text_and_the_tui_word_a_finding_alike():
    """One wording: the JSON message is the text report's what and why, from the same data."""
    report = _report()
    for lang in ("en", "zh"):
        text = render_text(report, lang)
        for f, data in zip(report.findings, report_json(report, lang)["findings"]):
            assert data["message"] == wording.message(f, lang)
            assert "  " + wording.what(f, lang) in text and wording.why(f, lang) in text
    assert "Traces per jitted function: train_step:12 ×1" in render_text(report, "en")


# ---- a real worker -----------------------------------------------------------------------------


@pytest.mark.slow
def test_findings_as_json_keep_the_contract_and_capture_the_output(tmp_path):
    script = SCRIPTS / "side_effect_global_counter.py"
    done = doctor(tmp_path, "--json", str(script))
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == CONTRACT_KEYS
    assert data["script"] == script.name and data["status"] == "findings" and data["exit_code"] == 0
    assert [(f["kind"], f["line"]) for f in data["findings"]] == [("side-effect", 11)]
    assert set(data["findings"][0]) == FINDING_KEYS and data["findings"][0]["lesson"] == "6.3"
    assert data["stdout"].strip(), "the script's own output is captured in the JSON"


@pytest.mark.slow
def test_a_clean_script_exits_0_and_its_output_passes_through_before_the_report(tmp_path):
    done = doctor(tmp_path, str(SCRIPTS / "clean_scan_training.py"))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "lr 0.05: first" in out and "No findings" in out
    assert out.index("lr 0.05: first") < out.index("doctor: clean_scan_training.py")


@pytest.mark.slow
def test_the_report_in_chinese_with_arguments_passed_to_the_script(tmp_path):
    script = write(
        tmp_path,
        "argv_step.py",
        """\
        import sys
        import jax
        import jax.numpy as jnp
        print("args", sys.argv[1:])
        total = 0
        @jax.jit
        def step(x):
            global total
            total = total + 1
            return x + 1
        step(jnp.ones(3))
        """,
    )
    done = doctor(tmp_path, "--lang", "zh", str(script), "--epochs", "3", "--", "--lr", "0.5", "--timeout", "5")
    assert done.returncode == 1, done.stderr
    assert "args ['--epochs', '3', '--lr', '0.5', '--timeout', '5']" in done.stdout
    assert "argv_step.py:9  [side-effect]  step  1 次" in done.stdout
    assert "全局变量 `total` 被重新赋值" in done.stdout and "修法见第 6.3 课" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    "body, says",
    [
        ("raise ValueError('bad batch')", "ValueError: bad batch"),
        ("import os; os._exit(7)", None),
        ("import ctypes; ctypes.string_at(0)", None),
    ],
    ids=["exception", "os-exit", "segfault"],
)
def test_a_script_that_crashes_exits_3_with_its_error(tmp_path, body, says):
    script = write(tmp_path, "crash.py", f"import jax\nprint('before', flush=True)\n{body}\n")
    start = time.monotonic()
    done = doctor(tmp_path, "--json", str(script))
    elapsed = time.monotonic() - start
    assert done.returncode == 3, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == CONTRACT_KEYS and data["status"] == "error" and data["exit_code"] != 0
    assert "before" in data["stdout"]
    if says:
        assert says in data["stderr"] and "tutor/child" not in data["stderr"]
    print(f"crash {body!r}: {elapsed:.1f} s")


@pytest.mark.slow
def test_a_script_that_hangs_is_stopped_at_the_time_limit_with_what_was_seen(tmp_path):
    script = write(
        tmp_path,
        "hang.py",
        """\
        import time
        import jax
        import jax.numpy as jnp
        x = jnp.ones(3)
        for i in range(3):
            x = jax.jit(lambda v: v * 2)(x)
        print("looping", flush=True)
        while True:
            time.sleep(0.1)
        """,
    )
    start = time.monotonic()
    done = doctor(tmp_path, "--json", "--timeout", "20", str(script))
    elapsed = time.monotonic() - start
    assert done.returncode == 3, done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == "timeout" and "looping" in data["stdout"]
    assert [(f["kind"], f["line"]) for f in data["findings"]] == [("retrace", 6)]
    # the status says the time limit ended it; the ceiling only tells that from a hang on a loaded box
    assert elapsed < 20 + 240, elapsed
    print(f"timeout 20 s: ended after {elapsed:.1f} s")


@pytest.mark.slow
def test_a_script_that_floods_its_output_runs_as_under_python_until_the_time_limit(tmp_path):
    # no output cap a plain run would not have: it is stopped by the time limit, not by its
    # output, and the JSON keeps the start of the flood and says how much there was
    script = write(
        tmp_path,
        "flood.py",
        """\
        import jax
        while True:
            print("x" * 1000)
        """,
    )
    done = doctor(tmp_path, "--json", "--timeout", "10", str(script), timeout=300)
    assert done.returncode == 3, done.stderr[-2000:]
    data = json.loads(done.stdout)
    assert data["status"] == "timeout"
    cut = data["output_cut"]["stdout"]
    assert cut["kept_chars"] == len(data["stdout"]) < cut["total_chars"]
    print(f"flood: {cut['total_chars'] / 2**20:.0f} MiB printed in 10 s, {cut['kept_chars'] / 2**20:.0f} MiB kept")


@pytest.mark.slow
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_ctrl_c_stops_the_script_and_still_reports_what_was_seen(tmp_path, as_json):
    ready = tmp_path / "ready"
    script = write(
        tmp_path,
        "spin.py",
        f"""\
        import pathlib, time
        import jax
        import jax.numpy as jnp
        x = jnp.ones(4)
        for i in range(4):
            x = jax.jit(lambda v: v + 1)(x)
        pathlib.Path({str(ready)!r}).write_text("ready")
        print("ready", flush=True)
        while True:
            time.sleep(0.05)
        """,
    )
    args = [sys.executable, "-m", "tutor", "doctor", *(["--json"] if as_json else []), str(script)]
    proc = subprocess.Popen(
        args,
        cwd=ROOT,
        env=_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 180
        while not ready.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert ready.exists(), "the script never got going"
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)  # the ceiling: a stop that hangs fails here
        elapsed = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    if as_json:
        data = json.loads(out)
        assert set(data) == CONTRACT_KEYS and data["exit_code"] == 130
        assert [(f["kind"], f["line"]) for f in data["findings"]] == [("retrace", 6)]
        assert "ready" in data["stdout"]
    else:
        assert "ready" in out and "stopped" in out and "spin.py:6  [retrace]" in out
    print(f"Ctrl+C ({'json' if as_json else 'text'}): report after {elapsed:.1f} s")


@pytest.mark.slow
def test_nans_reaches_the_worker_and_names_the_first_nan(tmp_path):
    script = SCRIPTS / "nan_log_in_jit.py"
    plain = json.loads(doctor(tmp_path, "--json", str(script)).stdout)
    assert "nan" not in [f["kind"] for f in plain["findings"]]  # only asked for with --nans
    done = doctor(tmp_path, "--json", "--nans", str(script))
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    assert [(f["kind"], f["line"]) for f in data["findings"]] == [("nan", 9)]


@pytest.mark.slow
def test_a_course_without_the_doctor_names_none_of_its_lessons(tmp_path):
    """The doctor's findings point into the lessons that teach each fix; another author's course
    (new-course: doctor: false) has none of those lessons, so no finding names one there."""
    course = tmp_path / "stats-101"
    made = subprocess.run(
        [sys.executable, "-m", "tutor", "new-course", str(course)], capture_output=True, text=True, env=_env(tmp_path)
    )
    assert made.returncode == 0, made.stderr
    script = next(p for p in sorted(SCRIPTS.glob("key_reuse*.py")))
    shipped = json.loads(doctor(tmp_path, str(script), "--json").stdout)
    assert shipped["findings"] and all(f["lesson"] for f in shipped["findings"])
    theirs = doctor(tmp_path, "--course", str(course), str(script), "--json")
    found = json.loads(theirs.stdout)["findings"]
    assert [f["kind"] for f in found] == [f["kind"] for f in shipped["findings"]]
    assert all(f["lesson"] is None and f["cell"] is None for f in found), found
    text = doctor(tmp_path, "--course", str(course), str(script)).stdout
    assert "lesson" not in text.lower() and "[key-reuse]" in text, text
