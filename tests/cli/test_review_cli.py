"""`jaxstate-tutor review`: today's review without the TUI. A quiz question answered wrong on one day
is due the next (the clock handed to main() moves; nothing sleeps); `progress` says how many are
due; the review asks it, records the answer, and `--off` / `--on` turn it off and back on."""

from __future__ import annotations

import io
import json
from datetime import date
from pathlib import Path

import pytest

from tutor.cli.main import main
from tutor.course import read_course
from tutor.progress import ProgressStore, changes

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "course"  # a quiz of two lettered questions
SMALL, _ = read_course(FIXTURE)
DAY1, DAY2 = date(2026, 12, 7), date(2026, 12, 8)


def run(home, args, capsys, monkeypatch, on: date, typed: str = "", course: Path = FIXTURE) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(["--home", str(home), "--course", str(course), *args], clock=lambda: on)
    return code, capsys.readouterr().out


class Learner:
    """stdin for `review`: reads the options printed so far and types the letter of the right one
    (they are reshuffled on a review, so the letter is not known beforehand)."""

    def __init__(self, capsys, right: set[str]):
        self.capsys, self.right, self.seen = capsys, right, ""

    def readline(self) -> str:
        self.seen += self.capsys.readouterr().out
        options = [line.strip() for line in self.seen.splitlines() if line[:2] == "  " and line[3:5] == ". "]
        return next(o[0] for o in reversed(options) if o[3:].strip() in self.right) + "\n"

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_wrong_answer_is_due_tomorrow_and_review_asks_and_records_it(tmp_path, capsys, monkeypatch, lang):
    q = SMALL.quiz[0]
    ProgressStore(tmp_path).apply(changes.answer, q.id, next(x for x in "ABCD" if x != q.answer), False, True, DAY1)
    said = {"en": "1 to review today", "zh": "今天有 1 道题要复习"}[lang]
    _, out = run(tmp_path, ["--lang", lang, "progress"], capsys, monkeypatch, DAY1)
    assert said not in out
    _, out = run(tmp_path, ["--lang", lang, "progress"], capsys, monkeypatch, DAY2)
    assert said in out, out
    _, out = run(tmp_path, ["progress", "--json"], capsys, monkeypatch, DAY2)
    assert json.loads(out)["review"]["due_today"] == [q.id]
    code, out = run(tmp_path, ["--lang", lang, "review"], capsys, monkeypatch, DAY2, typed="Z\n")
    assert code == 0 and ({"en": "Stopped", "zh": "已停止"}[lang]) in out  # Z refused, then the input ended
    learner = Learner(capsys, {f.options[f.answer].get(lang).strip() for f in (q, *q.siblings)})
    monkeypatch.setattr("sys.stdin", learner)
    code = main(["--home", str(tmp_path), "--course", str(FIXTURE), "--lang", lang, "review"], clock=lambda: DAY2)
    out = learner.seen + capsys.readouterr().out
    assert code == 0 and {"en": "Right!", "zh": "答对了！"}[lang] in out, out
    assert {"en": "Review: 1 of 1 right.", "zh": "复习：答对 1/1 题。"}[lang] in out, out
    assert {"en": "Next review: 2026-12-11", "zh": "下次复习：2026-12-11"}[lang] in out, out
    _, out = run(tmp_path, ["--lang", lang, "review"], capsys, monkeypatch, DAY2)
    assert {"en": "Nothing to review today.", "zh": "今天没有要复习的题。"}[lang] in out


def test_review_off_asks_nothing_and_on_brings_the_schedule_back(tmp_path, capsys, monkeypatch):
    q = SMALL.quiz[0]
    ProgressStore(tmp_path).apply(changes.answer, q.id, next(x for x in "ABCD" if x != q.answer), False, True, DAY1)
    assert run(tmp_path, ["review", "--off"], capsys, monkeypatch, DAY2)[0] == 0
    code, out = run(tmp_path, ["review"], capsys, monkeypatch, DAY2)
    assert code == 0 and "Review is off" in out
    _, out = run(tmp_path, ["progress"], capsys, monkeypatch, DAY2)
    assert "to review today" not in out
    run(tmp_path, ["review", "--on"], capsys, monkeypatch, DAY2)
    _, out = run(tmp_path, ["progress"], capsys, monkeypatch, DAY2)
    assert "1 to review today" in out


class DrillLearner:
    """stdin for a drill in `review`: the line typed, then the letter of the belief given."""

    def __init__(self, capsys, line: int, belief: str):
        self.capsys, self.answers, self.belief, self.seen = capsys, [str(line)], belief, ""

    def readline(self) -> str:
        self.seen += self.capsys.readouterr().out
        if self.answers:
            return self.answers.pop() + "\n"
        options = [line.strip() for line in self.seen.splitlines() if line[:2] == "  " and line[3:5] == ". "]
        return next(o[0] for o in reversed(options) if o[3:].strip() == self.belief) + "\n"

    def isatty(self) -> bool:
        return False


@pytest.mark.slow  # the drill runs in a real worker, as in the TUI
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_wrong_drill_is_due_tomorrow_and_review_asks_it_in_the_terminal(tmp_path, capsys, monkeypatch, lang):
    """The fixture's one drill answered wrong on day 1: `progress` counts it on day 2, `review`
    shows the program, takes the line and the belief, runs it and says what the check says, and
    the next review is 3 days on."""
    import shutil

    [drill] = SMALL.drills
    course = tmp_path / "course"  # a course's checks run confined to it: a copy outside the tutor's tree
    shutil.copytree(FIXTURE, course)
    home = tmp_path / "home"
    ProgressStore(home).apply(changes.drill, drill.id, drill.line + 1, drill.belief, False, DAY1)
    said = {"en": "1 to review today", "zh": "今天有 1 道题要复习"}[lang]
    _, out = run(home, ["--lang", lang, "progress"], capsys, monkeypatch, DAY1, course=course)
    assert said not in out
    _, out = run(home, ["--lang", lang, "progress"], capsys, monkeypatch, DAY2, course=course)
    assert said in out, out
    _, out = run(home, ["progress", "--json"], capsys, monkeypatch, DAY2, course=course)
    doc = json.loads(out)["review"]
    assert doc["due_today"] == [] and doc["drills_due_today"] == {drill.id: drill.id}  # the course has no other
    belief = SMALL.misconception(drill.belief).text.get(lang)
    learner = DrillLearner(capsys, drill.line, belief)
    monkeypatch.setattr("sys.stdin", learner)
    code = main(["--home", str(home), "--course", str(course), "--lang", lang, "review"], clock=lambda: DAY2)
    out = learner.seen + capsys.readouterr().out
    code_line = drill.code.splitlines()[drill.line - 1]
    assert code == 0 and f"{drill.line}  {code_line}" in out, out
    assert {"en": f"Line {drill.line}: right.", "zh": f"第 {drill.line} 行：对了。"}[lang] in out, out
    assert {"en": "Right!", "zh": "答对了！"}[lang] in out and {"en": "What the check", "zh": "检查“"}[lang] in out, out
    assert {"en": "Review: 1 of 1 right.", "zh": "复习：答对 1/1 题。"}[lang] in out, out
    assert {"en": "Next review: 2026-12-11", "zh": "下次复习：2026-12-11"}[lang] in out, out
    _, out = run(home, ["progress", "--json"], capsys, monkeypatch, DAY2, course=course)
    doc = json.loads(out)
    assert doc["review"]["drills"][drill.id]["step"] == 1 and doc["drills"][drill.id]["tries"] == 2
