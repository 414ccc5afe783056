"""`progress` names the misconceptions the learner's latest answers still show (in en and zh), with
the lesson to review; `progress --json` keeps the contract's keys as they were."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tutor.course import read_course
from tutor.progress import ProgressStore, changes

ROOT = Path(__file__).resolve().parents[2]


def progress(cli_env, home: Path, *args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "tutor", "progress", *args],
        capture_output=True,
        text=True,
        env=cli_env(home),
        timeout=120,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_progress_says_which_misconceptions_are_still_missed(tmp_path, cli_env):
    course, _ = read_course(ROOT)
    assert "Misconceptions" not in progress(cli_env, tmp_path)  # nothing answered: nothing said
    store = ProgressStore(tmp_path)
    store.apply(changes.answer, "cp62-at-update", "4", False, False)
    store.apply(changes.answer, "7", "A", False, True)
    store.apply(changes.answer, "cp64-leaf-count", "4", True, False)
    en = progress(cli_env, tmp_path)
    assert "Misconceptions your answers still show: 2 of the 3 they tested" in en, en
    for belief, where in (
        ("in-place-updates", "review lesson 6.2; wrong now: checkpoint 6.2"),
        ("donated-buffer", "review lesson 6.6; wrong now: quiz question 7"),
    ):
        assert f"  - {course.misconception(belief).text.en}\n    {where}\n" in en, en
    assert course.misconception("leaf-order").text.en not in en
    zh = progress(cli_env, tmp_path, "--lang", "zh")
    assert "你的答案仍显示出的误解：测到的 3 个中有 2 个" in zh, zh
    assert f"  - {course.misconception('donated-buffer').text.zh}\n    复习第 6.6 节；目前答错：测验第 7 题\n" in zh
    doc = json.loads(progress(cli_env, tmp_path, "--json"))
    assert {"exercises", "lessons", "quiz"} <= doc.keys()  # the contract's keys, as they were
    assert {"answers", "best_score", "attempts"} <= doc["quiz"].keys()
