"""Question code fits the question pane at 80x24 (issue 52, item 5): Textual clips a fenced block
instead of wrapping it, and the clipped part can hold the answer, so `validate` refuses a code
line wider than the pane shows, in either language, Chinese characters counted two columns."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.course.question import CODE_COLUMNS

LESSON = 'lesson:\n  id: "1.0"\n  order: 1\n  title: {en: T, zh: 题}\n  blocks:\n    - text: {en: Hi, zh: 你好}\n'


def _course(tmp_path: Path, en_line: str, zh_line: str):
    checkpoint = (
        textwrap.dedent("""\
        checkpoint:
          lesson: "1.0"
          questions:
            - id: q1
              prompt:
                en: |
                  ```python
                  EN
                  ```

                  What is printed?
                zh: |
                  ```python
                  ZH
                  ```

                  打印出什么？
              options: {A: {en: a, zh: 甲}, B: {en: b, zh: 乙}, C: {en: c, zh: 丙}, D: {en: d, zh: 丁}}
              answer: A
              explain: {A: {en: a, zh: 甲}, B: {en: b, zh: 乙}, C: {en: c, zh: 丙}, D: {en: d, zh: 丁}}
        """)
        .replace("EN", en_line)
        .replace("ZH", zh_line)
    )
    (tmp_path / "lessons" / "checkpoints").mkdir(parents=True)
    (tmp_path / "lessons" / "1.0.yaml").write_text(LESSON, encoding="utf-8")
    (tmp_path / "lessons" / "checkpoints" / "1.0.yaml").write_text(checkpoint, encoding="utf-8")
    return read_course(tmp_path)[1]


def test_a_line_that_fits_passes(tmp_path):
    line = "x = 1  # " + "a" * (CODE_COLUMNS - 9)
    assert _course(tmp_path, line, line) == []


@pytest.mark.parametrize(
    ("en", "zh", "lang"),
    [
        ("x = 1  # " + "a" * (CODE_COLUMNS - 8), "x = 1", "en"),
        ("x = 1", "x = 1  # " + "形" * ((CODE_COLUMNS - 8) // 2 + 1), "zh"),  # fits as characters, not as columns
    ],
)
def test_a_line_wider_than_the_pane_is_a_problem_naming_its_language(tmp_path, en, zh, lang):
    problems = [str(p) for p in _course(tmp_path, en, zh)]
    assert len(problems) == 1, problems
    assert f"prompt ({lang}) has a code line" in problems[0] and "80x24" in problems[0]
