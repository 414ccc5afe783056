"""The course's questions as `validate` sees them: predictions whose answer the screen already
shows, checkpoints of their own, and template questions whose placeholders must add up."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pytest

from tutor.course import read_course

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "lessons" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    (tmp_path / "solutions").mkdir(exist_ok=True)
    return tmp_path


def lint(tmp_path: Path, files: dict[str, str]) -> list[str]:
    return [str(p) for p in read_course(write(tmp_path, files), lint=True)[1]]


def lesson(prose_en: str, code: str, question_en: str = "How many times is `f` traced?", answer="2") -> str:
    code = textwrap.indent(textwrap.dedent(code), " " * 16)
    return f"""\
    lesson:
      id: "1.0"
      order: 1
      title: {{en: T, zh: 题}}
      blocks:
        - text:
            en: |
              {prose_en}
            zh: 下面的代码调用它几次。
        - cell:
            id: c1
            code: |
{code}
            predict:
              question: {{en: "{question_en}", zh: 问题}}
              answer: {answer}
              reveal: 'traces: (\\d+)'
    """


FAIR_CODE = """\
    import jax
    n = []
    f = jax.jit(lambda x: n.append(0) or x)
    for shape in [(3,), (3,), (4,)]:
        f(jax.numpy.zeros(shape))
    print("traces:", len(n))
"""


@pytest.mark.parametrize(
    "prose, code, question, said",
    [
        ("Calls that repeat a shape are served twice from one program.", FAIR_CODE, None, "'twice'"),
        ("The function is traced 2 times here.", FAIR_CODE, None, "'2'"),
        ("Watch it: the Python body runs only while tracing.", FAIR_CODE, None, "'only while tracing'"),
        (
            "It is called three times.",
            FAIR_CODE.replace("    print(", "    # same shape: cached\n    print("),
            None,
            "'cached'",
        ),
        ("It is called three times.", FAIR_CODE.replace('"traces:"', '"traces (2 expected):"'), None, "'2'"),
        ("It is called three times.", FAIR_CODE, "Is it traced two times or more?", "'two times'"),
    ],
)
def test_a_prediction_answered_before_it_is_asked_is_flagged(tmp_path, prose, code, question, said):
    kw = {"question_en": question} if question else {}
    found = lint(tmp_path, {"1.0.yaml": lesson(prose, code, **kw)})
    assert any("cell 'c1'" in p and said in p for p in found), found


def test_a_fair_prediction_is_not_flagged(tmp_path):
    """Setting up the question (how it is called, with which shapes) is not answering it."""
    found = lint(tmp_path, {"1.0.yaml": lesson("`f` is called three times, with the shapes below.", FAIR_CODE)})
    assert found == [], found


def test_an_option_word_only_the_right_option_uses_is_flagged(tmp_path):
    text = """\
    lesson:
      id: "1.0"
      order: 1
      title: {en: T, zh: 题}
      blocks:
        - text: {en: "Dicts are flattened in sorted order.", zh: 字典按键排序展平。}
        - cell:
            id: c1
            code: |
              import jax
              print("first:", jax.tree.leaves({"z": 1, "a": 2})[0])
            predict:
              question: {en: Which leaf comes first?, zh: 哪个叶子在前？}
              options:
                A: {value: "1", text: {en: "z's: the order it was written in", zh: 书写顺序}}
                B: {value: "2", text: {en: "a's: keys sorted", zh: 键排序}}
              answer: B
              reveal: 'first: (\\d)'
    """
    found = lint(tmp_path, {"1.0.yaml": text})
    assert any("'sorted'" in p for p in found), found


NAMES_CELL = """\
lesson:
  id: "1.0"
  order: 1
  title: {en: T, zh: 题}
  blocks:
    - text: {en: "Two functions, `f` and `g`.", zh: 两个函数。}
    - cell:
        id: c1
        code: |
          def f(x):
              return x

          def g(x):
              print(x)
              return x
          print("pure:", "f")
        predict:
          question: {en: "Which of `f` and `g` are pure?", zh: 哪些是纯函数？}
          options:
            A: {value: "f", text: {en: "Only `f`", zh: 只有 f}}
            B: {value: "f, g", text: {en: "Both", zh: 都是}}
            %s
          answer: A
          reveal: 'pure: (.+)'
"""


def test_a_value_that_wrong_options_contain_too_gives_nothing_away(tmp_path):
    """The question names every candidate; a value the wrong options share points at none of them."""
    found = lint(tmp_path, {"1.0.yaml": NAMES_CELL % 'C: {value: "g", text: {en: "Only g", zh: 只有 g}}'})
    assert not [p for p in found if "written before it is asked" in p], found


def test_a_value_only_the_right_option_has_is_flagged_when_shown(tmp_path):
    text = (NAMES_CELL % "").replace('B: {value: "f, g"', 'B: {value: "g"')
    found = lint(tmp_path, {"1.0.yaml": text})
    assert any("the answer 'f' is written before it is asked" in p for p in found), found


def test_the_predictions_written_before_this_check_existed_are_all_flagged(tmp_path):
    """The 12 predict cells of the course as it was (commit b850498) each gave their answer away."""
    lessons = tmp_path / "old"
    shown = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "b850498", "lessons", "solutions"], capture_output=True, timeout=60
    )
    if shown.returncode != 0:
        pytest.skip("this clone has no history to read the old course from")
    lessons.mkdir()
    subprocess.run(["tar", "-x", "-C", str(lessons)], input=shown.stdout, check=True, timeout=60)
    course, problems = read_course(lessons, lint=True)
    cells = {c.id for l in course.lessons for c in l.cells if c.predict}
    flagged = {c for c in cells if any(f"cell '{c}'" in p.message for p in problems)}
    assert len(cells) == 12 and flagged == cells, sorted(cells - flagged)


def test_the_shipped_predictions_are_not_given_away_and_there_are_enough():
    course, problems = read_course(ROOT, lint=True)
    giveaways = [str(p) for p in problems if "cell '" in p.message and "predict" not in p.message]
    assert not giveaways, giveaways
    predicts = [c for l in course.lessons for c in l.cells if c.predict]
    assert len(predicts) >= 16
    assert all(c.predict.explain is not None for c in predicts), [c.id for c in predicts if not c.predict.explain]


def test_every_teaching_lesson_has_a_checkpoint_of_its_own_with_templates():
    course = read_course(ROOT)[0]
    quiz_prompts = {q.prompt.en.strip() for q in course.quiz}
    for lesson_ in course.lessons:
        if lesson_.order > 8:
            continue
        questions = course.checkpoint(lesson_.id)
        assert len(questions) >= 2, f"{lesson_.id} has {len(questions)} checkpoint questions"
        assert not any(q.prompt.en.strip() in quiz_prompts for q in questions), f"{lesson_.id} copies the quiz"
    templates = [q for q in course.questions() if q.template]
    assert len(templates) >= 6 and all(len(q.template.variants) >= 2 for q in templates)
    assert len(course.quiz) == 8


TEMPLATE = """\
checkpoint:
  lesson: "1.0"
  questions:
    - id: t1
      prompt: {en: "Shapes $shapes: how many traces?", zh: "形状 $shapes：追踪几次？"}
      template:
        variants:
          - {shapes: "(3,), (4,)", calls: "[(3,), (4,)]"}
          - {shapes: "(3,), (3,)", calls: "[(3,), (3,)]"}
        code: |
          for shape in $calls:
              pass
          print("answer:", len($calls))
        reveal: 'answer: (\\d+)'
        explain: {en: "Traced $answer times.", zh: "追踪了 $answer 次。"}
"""
LESSON = """\
lesson:
  id: "1.0"
  order: 1
  title: {en: T, zh: 题}
  blocks:
    - text: {en: Hi, zh: 你好}
"""


def test_a_good_template_loads_and_fills_its_variants(tmp_path):
    course, problems = read_course(write(tmp_path, {"1.0.yaml": LESSON, "checkpoints/1.0.yaml": TEMPLATE}))
    assert problems == []
    (q,) = course.checkpoint("1.0")
    assert q.numeric and q.lesson == "1.0" and q.variants() == 2
    assert q.template.fill_text(q.prompt, 1).en == "Shapes (3,), (3,): how many traces?"
    assert "for shape in [(3,), (3,)]:" in q.template.cell("t1", 1).code
    assert q.template.fill_text(q.template.explain, 0, "2").zh == "追踪了 2 次。"
    assert q.template.shown("answer: 2\n") == "2" and q.template.shown("answer: two") is None


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (lambda s: s.replace(', calls: "[(3,), (3,)]"', ""), ":9: question 't1' template variant 2 gives no value"),
        (lambda s: s.replace("(3,), (3,)", "(3,), (4,)"), "two identical variants"),
        (lambda s: s.replace("Traced $answer", "Traced $count"), "gives no value for $count"),
        (lambda s: s.replace("len($calls))", "len($calls), $answer)"), "the code cannot use $answer"),
        (lambda s: s.replace("Shapes $shapes", "Shapes $ shapes"), "has a '$' that is no placeholder"),
        (lambda s: s.replace("    pass", "    pass("), ":12: question 't1' template code, filled with variant"),
        (lambda s: s.replace('          - {shapes: "(3,), (3,)", calls: "[(3,), (3,)]"}\n', ""), "at least 2"),
        (lambda s: s.replace('lesson: "1.0"', 'lesson: "9.9"'), "checkpoint names lesson '9.9'"),
    ],
)
def test_template_mistakes_are_named_with_file_and_line(tmp_path, mutate, expected):
    files = {"1.0.yaml": LESSON, "checkpoints/1.0.yaml": mutate(TEMPLATE)}
    found = [str(p) for p in read_course(write(tmp_path, files))[1]]
    assert any(expected in p for p in found), found


def test_a_variants_value_may_name_its_other_placeholders_and_they_are_filled(tmp_path):
    """cp65-scan-ys-last's `why_zh` names its `$init`: shown unfilled until the fill went one
    level deep; a name the variant does not give, or one that nests further, is a problem."""
    nested = (
        TEMPLATE.replace("Traced $answer times.", "Traced $answer times. $why")
        .replace('calls: "[(3,), (4,)]"}', 'calls: "[(3,), (4,)]", why: "Shapes $shapes differ."}')
        .replace('calls: "[(3,), (3,)]"}', 'calls: "[(3,), (3,)]", why: "One shape."}')
    )
    course, problems = read_course(write(tmp_path, {"1.0.yaml": LESSON, "checkpoints/1.0.yaml": nested}))
    assert problems == []
    (q,) = course.checkpoint("1.0")
    assert q.template.fill_text(q.template.explain, 0, "2").en == "Traced 2 times. Shapes (3,), (4,) differ."
    for wrong in ("Shapes $sizes differ.", "Calls $why"):
        files = {"1.0.yaml": LESSON, "checkpoints/1.0.yaml": nested.replace("Shapes $shapes differ.", wrong)}
        found = [str(p) for p in read_course(write(tmp_path, files))[1]]
        assert any("variant 1: $why uses" in p for p in found), found


def test_a_question_id_is_unique_across_checkpoints_and_the_quiz(tmp_path):
    quiz = TEMPLATE.replace('checkpoint:\n  lesson: "1.0"\n', "quiz:\n")
    files = {"1.0.yaml": LESSON, "checkpoints/1.0.yaml": TEMPLATE, "quiz.yaml": quiz}
    found = [str(p) for p in read_course(write(tmp_path, files))[1]]
    assert any("duplicate question id 't1'" in p for p in found), found
