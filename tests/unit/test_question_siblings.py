"""A lettered question's siblings: other questions on the same misconception, asked in its place
on a retry, so that a retry asks anew instead of reshuffling what was just answered."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

from tutor.course import read_course
from tutor.progress import ProgressStore, changes
from tutor.progress.asking import draw_variant
from tutor.progress.snapshot import Snapshot

LESSON = """\
lesson:
  id: "1.0"
  order: 1
  title: {en: T, zh: 题}
  blocks:
    - text: {en: Hi, zh: 你好}
"""


def _question(prompt: str, answer: str) -> str:
    return textwrap.dedent(f"""\
        prompt: {{en: "{prompt}", zh: "{prompt}？"}}
        options:
          A: {{en: "one", zh: "一"}}
          B: {{en: "two", zh: "二"}}
          C: {{en: "three", zh: "三"}}
          D: {{en: "four", zh: "四"}}
        answer: {answer}
        explain:
          A: {{en: "because a", zh: "因为甲"}}
          B: {{en: "because b", zh: "因为乙"}}
          C: {{en: "because c", zh: "因为丙"}}
          D: {{en: "because d", zh: "因为丁"}}
        """)


def _checkpoint(siblings: list[tuple[str, str]]) -> str:
    main = textwrap.indent(_question("Main", "A"), "      ")
    text = 'checkpoint:\n  lesson: "1.0"\n  questions:\n    - id: q1\n' + main
    if siblings:
        text += "      siblings:\n"
        for prompt, answer in siblings:
            body = textwrap.indent(_question(prompt, answer), "          ")
            text += "        - " + body.lstrip()
    return text


def _course(tmp_path: Path, checkpoint: str):
    (tmp_path / "lessons" / "checkpoints").mkdir(parents=True)
    (tmp_path / "lessons" / "1.0.yaml").write_text(LESSON)
    (tmp_path / "lessons" / "checkpoints" / "1.0.yaml").write_text(checkpoint)
    return read_course(tmp_path)


def test_siblings_load_as_forms_of_the_question(tmp_path):
    course, problems = _course(tmp_path, _checkpoint([("Second", "C"), ("Third", "D")]))
    assert problems == []
    (q,) = course.checkpoint("1.0")
    assert q.variants() == 3
    assert [q.asked(i).prompt.en for i in range(3)] == ["Main", "Second", "Third"]
    assert [q.asked(i).answer for i in range(3)] == ["A", "C", "D"]
    assert {q.asked(i).id for i in range(3)} == {"q1"} and q.asked(2).lesson == "1.0"


def test_a_broken_sibling_is_named(tmp_path):
    broken = _checkpoint([("Second", "E")])
    _, problems = _course(tmp_path, broken)
    assert any("sibling 1 answer must be one of" in str(p) for p in problems), problems


def test_a_retry_never_asks_the_form_just_answered(tmp_path):
    """Unseen forms first; once all were seen, any but the one asked last (not the last new one)."""
    course, _ = _course(tmp_path, _checkpoint([("Second", "C"), ("Third", "D")]))
    (q,) = course.checkpoint("1.0")
    store = ProgressStore(tmp_path / "home")
    rng = random.Random(0)
    asked = []
    for _ in range(12):
        v = draw_variant(q, Snapshot(store.load()), rng)
        assert not asked or v != asked[-1]
        store.apply(changes.question_drawn, q.id, v)
        asked.append(v)
    assert asked[0] == 0  # first as written: every learner's first try is the same question
    assert sorted(asked[:3]) == [0, 1, 2]  # every form once before any repeats


def test_a_question_answered_before_forms_were_kept_is_not_asked_as_written_again(tmp_path):
    course, _ = _course(tmp_path, _checkpoint([("Second", "C")]))
    (q,) = course.checkpoint("1.0")
    store = ProgressStore(tmp_path / "home")
    store.apply(changes.answer, q.id, "B", False, False)  # an old record: an answer, no forms
    assert draw_variant(q, Snapshot(store.load()), random.Random(0)) == 1
