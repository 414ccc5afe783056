"""The course loader and validator: typed objects for good YAML, file:line problems for bad."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.i18n import Bilingual

ROOT = Path(__file__).resolve().parents[2]

GOOD_EXERCISE = """\
exercise:
  id: demo
  lesson: "1.0"
  title: {en: Demo, zh: 演示}
  prompt: {en: Do it, zh: 做吧}
  hints:
    - {en: think, zh: 想一想}
  checks:
    - id: defines
      name: {en: defines f, zh: 定义了 f}
    - id: value
      name: {en: value, zh: 数值}
"""
GOOD_CHECKS = """\
import numpy as np

from tutor.child.library import check, close, expect_no_hidden_state, is_defined


@check("defines")
def check_defines(learner, f):
    is_defined(f=f) or expect_no_hidden_state(learner, f, label="f()")  # one line: the problems' lines hold


@check("value", depends=["defines"])
def check_value(f):
    close(f(), np.float64(1))
"""
GOOD_STARTER = "def f():\n    return 0\n"

GOOD_LESSON = """\
lesson:
  id: "1.0"
  order: 1
  title: {en: Intro, zh: 导论}
  blocks:
    - text: {en: Hello, zh: 你好}
    - cell:
        id: hello-cell
        code: |
          print("hi")
        expect: {output_contains: ["hi"]}
"""


def make_course(tmp_path: Path, files: dict[str, str], solutions=("demo",)) -> Path:
    """Write a course: "exercises/<id>.yaml" is that exercise's folder, its exercise.yaml with the
    good checks.py and starter.py beside it unless `files` gives them ("exercises/<id>/checks.py")."""
    files = dict(files)
    for name in [n for n in files if re.fullmatch(r"exercises/[^/]+\.yaml", n)]:
        folder = name.removesuffix(".yaml")
        files[f"{folder}/exercise.yaml"] = files.pop(name)
        files.setdefault(f"{folder}/checks.py", GOOD_CHECKS)
        files.setdefault(f"{folder}/starter.py", GOOD_STARTER)
    for name, text in files.items():
        path = tmp_path / "lessons" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    (tmp_path / "solutions").mkdir(exist_ok=True)
    for sid in solutions:
        (tmp_path / "solutions" / f"{sid}.py").write_text("def f():\n    return 1\n")
    return tmp_path


def problems_of(tmp_path, files, **kw) -> list[str]:
    _, problems = read_course(make_course(tmp_path, files, **kw))
    return [str(p) for p in problems]


def test_a_course_is_read_again_whenever_any_of_its_files_changes(tmp_path):
    """read_course keeps what it read while the files are the same: an edit of the same size and
    the same mtime, a new file, a removed solution each give a new read."""
    import os

    root = make_course(tmp_path, {"1.0.yaml": GOOD_LESSON, "exercises/demo.yaml": GOOD_EXERCISE})
    first, problems = read_course(root)
    assert problems == [] and read_course(root)[0] is first  # unchanged: the same course
    problems.append("a caller's own list")
    assert read_course(root)[1] == []

    lesson = root / "lessons" / "1.0.yaml"
    text, stamp = lesson.read_text(encoding="utf-8"), lesson.stat()
    edited = text.replace("Intro", "Intra", 1)
    assert edited != text and len(edited) == len(text)
    lesson.write_text(edited, encoding="utf-8")
    os.utime(lesson, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # a same-size edit in one clock tick
    again = read_course(root)[0]
    assert again is not first and again.lesson("1.0").title.en == "Intra"

    (root / "solutions" / "demo.py").unlink()
    assert any("solution file missing" in str(p) for p in read_course(root)[1])
    (root / "lessons" / "2.0.yaml").write_text("lesson: [", encoding="utf-8")
    assert any("2.0.yaml" in p.file and "YAML" in p.message for p in read_course(root)[1])


def test_a_kept_course_serves_the_next_process_and_a_broken_one_is_read_again(tmp_path, monkeypatch):
    """What one process read is kept on disk under its fingerprint: the next process does not parse
    the course again; a torn or foreign file there is ignored; no cache folder is only slower."""
    from tutor.course import loader

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = make_course(tmp_path / "c", {"1.0.yaml": GOOD_LESSON, "exercises/demo.yaml": GOOD_EXERCISE})
    first, _ = read_course(root)
    (kept,) = (tmp_path / "cache").rglob("*.pickle")

    parsed = []
    real = loader._read_course
    monkeypatch.setattr(loader, "_read_course", lambda *a: parsed.append(a) or real(*a))
    monkeypatch.setattr(loader, "_READ", {})  # as a new process
    again, problems = read_course(root)
    assert parsed == [] and again == first and again is not first and problems == []

    for broken in (b"", kept.read_bytes()[:100], b"\x80\x05K\x01."):  # empty, torn, a pickled 1
        kept.write_bytes(broken)
        monkeypatch.setattr(loader, "_READ", {})
        assert read_course(root)[0] == first
    assert len(parsed) == 3 and kept.read_bytes() != b"\x80\x05K\x01."  # each read anew, and kept again

    (tmp_path / "cache-file").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-file"))
    monkeypatch.setattr(loader, "_READ", {})
    assert read_course(root)[0] == first


def test_good_course_loads_into_typed_objects(tmp_path):
    course, problems = read_course(
        make_course(tmp_path, {"1.0.yaml": GOOD_LESSON, "exercises/demo.yaml": GOOD_EXERCISE})
    )
    assert problems == []
    ex = course.exercise("demo")
    assert ex.title == Bilingual(zh="演示", en="Demo")
    assert [c.id for c in ex.checks] == ["defines", "value"]
    assert ex.checks[1].depends == ("defines",) and ex.checks[1].needs == ("f",)
    assert (ex.checks[1].function, ex.checks[1].line) == ("check_value", 12)
    assert ex.starter == GOOD_STARTER and ex.checks_file.name == "checks.py"
    assert course.lesson("1.0").cells[0].expect.output_contains == ("hi",)


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (
            lambda s: s.replace("  title: {en: Demo, zh: 演示}", "  title: {en: Demo, zh: 演示}\n  colour: red"),
            "exercises/demo/exercise.yaml:5: unknown key 'colour' in exercise",
        ),
        (
            lambda s: s.replace("{en: Do it, zh: 做吧}", "{en: Do it}"),
            "exercises/demo/exercise.yaml:5: exercise prompt is missing its 'zh' translation",
        ),
        (
            lambda s: s.replace(
                "      name: {en: value, zh: 数值}", "      name: {en: value, zh: 数值}\n      kind: python"
            ),
            "exercises/demo/exercise.yaml:13: 'kind' does not belong in exercise.yaml: a check's code is a @check",
        ),
        (lambda s: s.replace("id: value", "id: defines"), "exercise.yaml:11: duplicate check id 'defines'"),
        (
            lambda s: s.replace("    - id: value\n      name: {en: value, zh: 数值}\n", ""),
            "exercises/demo/checks.py:12: check 'value' has no entry (name, advice) in exercise.yaml",
        ),
        (
            lambda s: s + "    - id: extra\n      name: {en: extra, zh: 额外}\n",
            "exercises/demo/exercise.yaml:13: check 'extra' has no @check function in checks.py",
        ),
        (
            lambda s: s.replace("  prompt: {en: Do it, zh: 做吧}", "  prompt: {en: Do it, zh: 做吧}\n  starter: x"),
            "exercises/demo/exercise.yaml:6: 'starter' does not belong in exercise.yaml: it is starter.py",
        ),
        (lambda s: s.replace("id: demo", "id: demo-two"), "exercise id 'demo-two' differs from its folder's name"),
        (
            lambda s: s.replace("  hints:\n    - {en: think, zh: 想一想}\n", ""),
            "exercise is missing required key 'hints'",
        ),
        (lambda s: s.replace("title: {en: Demo, zh: 演示}", "title: Demo"), "must have a translation per language"),
        (
            lambda s: s.replace("prompt: {en: Do it, zh: 做吧}", "prompt: {en: Do it, zh: 做吧\n"),
            "exercises/demo/exercise.yaml:",
        ),
    ],
)
def test_each_problem_names_file_and_line(tmp_path, mutate, expected):
    found = problems_of(tmp_path, {"1.0.yaml": GOOD_LESSON, "exercises/demo.yaml": mutate(GOOD_EXERCISE)})
    assert any(expected in p for p in found), found


@pytest.mark.parametrize(
    "mutate, expected",
    [
        (lambda s: s.replace('@check("value"', '@check("defines"'), "checks.py:12: duplicate check id 'defines'"),
        (
            lambda s: s.replace('depends=["defines"]', 'depends=["nothing"]'),
            "checks.py:12: check 'value' depends on 'nothing', which is not an earlier check",
        ),
        (
            lambda s: s.replace("close(f(), np.float64(1))", "close(f(, np.float64(1))"),
            "checks.py:13: Python syntax error",
        ),
        (
            lambda s: s.replace('@check("value", depends=["defines"])', "@check(value)"),
            "checks.py:12: @check on check_value needs",
        ),
        (
            lambda s: s.replace("def check_value(f):", "def check_value(*names):"),
            "checks.py:12: check function check_value takes plain",
        ),
    ],
)
def test_a_checks_file_problem_names_its_line(tmp_path, mutate, expected):
    """checks.py is read as source, never imported (that would need JAX): what it declares is
    checked against exercise.yaml, each problem at its own file and line."""
    files = {
        "1.0.yaml": GOOD_LESSON,
        "exercises/demo.yaml": GOOD_EXERCISE,
        "exercises/demo/checks.py": mutate(GOOD_CHECKS),
    }
    found = problems_of(tmp_path, files)
    assert any(f"lessons/exercises/demo/{expected}" in p for p in found), found


def test_a_missing_starter_or_checks_file_is_named(tmp_path):
    course = make_course(tmp_path, {"1.0.yaml": GOOD_LESSON, "exercises/demo.yaml": GOOD_EXERCISE})
    (course / "lessons/exercises/demo/starter.py").unlink()
    (course / "lessons/exercises/demo/checks.py").unlink()
    found = [str(p) for p in read_course(course)[1]]
    assert any("starter missing: starter.py beside exercise.yaml" in p for p in found), found
    assert any("check code missing: checks.py beside exercise.yaml" in p for p in found), found


PREDICT_LESSON = (
    GOOD_LESSON
    + """\
    - cell:
        id: count-cell
        predict:
          question: {en: How many?, zh: 几个?}
          answer: 3
          reveal: 'count: (\\d+)'
        code: |
          print("count: 3")
    - cell:
        id: pick-cell
        predict:
          question: {en: Which one?, zh: 哪一个?}
          options:
            A: {value: "1"}
            B: {value: "True", text: {en: "yes, it is", zh: 是的}}
          answer: B
          reveal: 'deleted: (\\w+)'
        code: |
          print("deleted: True")
"""
)


def test_predict_loads_and_judges_a_guess_against_the_run(tmp_path):
    course, problems = read_course(make_course(tmp_path, {"1.0.yaml": PREDICT_LESSON}, solutions=()))
    assert problems == []
    count, pick = (c.predict for c in course.lesson("1.0").cells[1:])
    assert count.numeric and count.answer == "3" and count.shown("x\ncount: 3\n") == "3"
    assert count.is_right("3.0", "3") and not count.is_right("4", "3") and not count.is_right("three", "3")
    assert count.shown("no count here") is None and not count.is_right("3", None)
    assert pick.options["B"].label("zh") == "是的" and pick.options["A"].label("en") == "1"
    assert pick.is_right("b", "True") and not pick.is_right("A", "True") and not pick.is_right("E", "True")
    assert pick.describe_shown("True", "en") == "B) yes, it is" and pick.describe_shown("7", "en") == "7"


@pytest.mark.parametrize(
    "old, new, expected",
    [
        (
            "          answer: 3\n",
            "          answer: 3\n          hint: no\n",
            "lessons/1.0.yaml:17: unknown key 'hint' in cell in block 3 predict",
        ),
        (
            "          answer: B\n",
            "          answer: C\n",
            "lessons/1.0.yaml:27: cell in block 4 predict answer 'C' is not among the options (A, B)",
        ),
        (
            "          answer: 3\n",
            "          answer: three\n",
            "lessons/1.0.yaml:16: cell in block 3 predict answer must be a number",
        ),
        (
            "{en: How many?, zh: 几个?}",
            "{en: How many?}",
            "lessons/1.0.yaml:15: cell in block 3 predict question is missing its 'zh' translation",
        ),
        (
            '{en: "yes, it is", zh: 是的}',
            '{en: "yes, it is"}',
            "lessons/1.0.yaml:26: cell in block 4 predict option B text is missing its 'zh'",
        ),
        ("'count: (\\d+)'", "'count: (\\d+'", "lessons/1.0.yaml:17: cell in block 3 predict reveal: bad regex"),
        (
            "'count: (\\d+)'",
            "'count: \\d+'",
            "lessons/1.0.yaml:17: cell in block 3 predict reveal 'count: \\\\d+' has no group",
        ),
        (
            '            A: {value: "1"}\n',
            "",
            "lessons/1.0.yaml:25: cell in block 4 predict options must be 2 to 4 choices",
        ),
        (
            'A: {value: "1"}',
            'A: {value: "True"}',
            "lessons/1.0.yaml:26: cell in block 4 predict options A and B have the same value 'True'",
        ),
        ("          answer: 3\n", "", "lessons/1.0.yaml:15: cell in block 3 predict is missing required key 'answer'"),
    ],
)
def test_each_predict_problem_names_file_and_line(tmp_path, old, new, expected):
    assert old in PREDICT_LESSON
    found = problems_of(tmp_path, {"1.0.yaml": PREDICT_LESSON.replace(old, new, 1)}, solutions=())
    assert any(expected in p for p in found), found


def test_quiz_evidence_cannot_ask_for_a_prediction(tmp_path):
    quiz = """\
    quiz:
      questions:
        - id: "1"
          prompt: {en: Q, zh: 问}
          options: {A: {en: a, zh: 甲}, B: {en: b, zh: 乙}, C: {en: c, zh: 丙}, D: {en: d, zh: 丁}}
          answer: A
          explain: {A: {en: a, zh: 甲}, B: {en: b, zh: 乙}, C: {en: c, zh: 丙}, D: {en: d, zh: 丁}}
          evidence:
            id: q1-cell
            code: print(1)
            predict: {question: {en: Q, zh: 问}, answer: 1, reveal: '(1)'}
    """
    found = problems_of(tmp_path, {"quiz.yaml": quiz}, solutions=())
    assert any("quiz.yaml:11: unknown key 'predict' in question '1' evidence" in p for p in found), found


def test_missing_solution_and_unknown_lesson(tmp_path):
    found = problems_of(
        tmp_path,
        {"1.0.yaml": GOOD_LESSON, "exercises/demo.yaml": GOOD_EXERCISE.replace('lesson: "1.0"', 'lesson: "9.9"')},
        solutions=(),
    )
    assert any("solution file missing: solutions/demo.py" in p for p in found)
    assert any("names lesson '9.9', which does not exist" in p for p in found)


def test_duplicate_exercise_across_files(tmp_path):
    found = problems_of(tmp_path, {"exercises/demo.yaml": GOOD_EXERCISE, "exercises/demo2.yaml": GOOD_EXERCISE})
    assert any("duplicate exercise id 'demo'" in p or "differs from its folder" in p for p in found)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "- a\n- b\n",
        "just text\n",
        "exercise: [1, 2]\n",
        "lesson: {id: x}\n",
        "a: 1\nb: 2\n",
        "exercise:\n  id: x\n  id: y\n",
        "\tbad: tab\n",
        "{{{{",
        "quiz: 3\n",
    ],
)
def test_broken_files_give_problems_not_tracebacks(tmp_path, text):
    found = problems_of(tmp_path, {"exercises/broken.yaml": text})
    assert found and all(p.startswith("lessons/exercises/broken/exercise.yaml:") for p in found), found


def test_non_utf8_file(tmp_path):
    course = make_course(tmp_path, {"1.0.yaml": GOOD_LESSON})
    (course / "lessons" / "bad.yaml").write_bytes(b"lesson:\n  id: \xff\xfe\n")
    _, problems = read_course(course)
    assert problems and "not UTF-8" in str(problems[0])


def test_validate_command_reports_and_exits_1(tmp_path, cli_env):
    course = make_course(
        tmp_path, {"exercises/demo.yaml": GOOD_EXERCISE + "    - id: extra\n      name: {en: x, zh: x}\n"}
    )
    proc = subprocess.run(
        [sys.executable, "-m", "tutor", "validate", str(course)],
        capture_output=True,
        text=True,
        env=cli_env(tmp_path / "home"),
        timeout=60,
    )
    assert proc.returncode == 1
    assert "lessons/exercises/demo/exercise.yaml:13: check 'extra' has no @check function in checks.py" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_shipped_course_is_valid():
    _, problems = read_course(ROOT, lint=True)
    assert problems == [], "\n".join(map(str, problems))


def _prompt(en: str, zh: str = "做吧") -> str:
    """GOOD_EXERCISE with a block-scalar prompt: its first text line is line 7 of the file."""

    def block(s: str) -> str:
        return "\n".join(("      " + l).rstrip() for l in textwrap.dedent(s).strip("\n").split("\n"))

    return GOOD_EXERCISE.replace(
        "  prompt: {en: Do it, zh: 做吧}\n", f"  prompt:\n    en: |\n{block(en)}\n    zh: |\n{block(zh)}\n"
    )


@pytest.mark.parametrize(
    "en, zh, expected",
    [
        # The rmsprop bug: a formula indented under a list item.
        (
            """
     - `update(grads, state)`, leaf by leaf:

           s = rho * s + (1 - rho) * g**2
     """,
            "做吧",
            ":9: exercise prompt (en): indented code block",
        ),
        (
            "Fine.\n\nThen s = rho * s + (1 - rho) * g**2 and v**2.",
            "做吧",
            ":9: exercise prompt (en): '**' right after a letter",
        ),
        ("one\n\ntwo: g**2 alone", "做吧", ":9: exercise prompt (en): '*' touching a letter or digit"),
        ("Call `f(x) and go.", "做吧", ":7: exercise prompt (en): unmatched backtick"),
        ("Files live in <home>/workspace.", "做吧", ":7: exercise prompt (en): <home> is read as HTML"),
        ("Code:\n\n```\nx = 1\n", "做吧", ":9: exercise prompt (en): code fence ``` is never closed"),
        ("Code:\n\n```\nx = 1\n```", "做吧", ":9: exercise prompt (en): code fence ``` names no language"),
        ("| a | b |\n| 1 | 2 |", "做吧", ":7: exercise prompt (en): a table row that is not read as a table"),
        ("Fine.", "第一行\n\n在 jit 下这会 抛出错误。", ":11: exercise prompt (zh): space between Chinese characters"),
        ("Fine.", "第一行\n\n状态,再看输出。", ":11: exercise prompt (zh): ASCII punctuation in Chinese prose ('态,')"),
        ("Fine.", "形状(见 6.5 节)。", ":9: exercise prompt (zh): ASCII parentheses around Chinese text"),
        ("Fine.", "导师会调用它。", ":9: exercise prompt (zh): 导师 reads as a human mentor"),
    ],
)
def test_markdown_that_would_render_wrongly_is_named_with_file_and_line(tmp_path, en, zh, expected):
    course = make_course(tmp_path, {"1.0.yaml": GOOD_LESSON, "exercises/demo.yaml": _prompt(en, zh)})
    assert read_course(course)[1] == []  # only validate lints, loading stays fast
    found = [str(p) for p in read_course(course, lint=True)[1]]
    assert len(found) == 1 and f"lessons/exercises/demo/exercise.yaml{expected}" in found[0], found


@pytest.mark.parametrize(
    "source, shown",
    [
        ("在 jit 下这会\n    抛出错误。", "在 jit 下这会抛出错误。"),  # a wrapped sentence is one line again
        ("## 标题\n正文", "## 标题\n正文"),  # a heading is one line by definition
        ("```\n# 注释\n中文\n```", "```\n# 注释\n中文\n```"),  # code is left as written
        ("第一段。\n\n第二段", "第一段。\n\n第二段"),  # a blank line still separates paragraphs
        ("用 `jit`\n编译", "用 `jit`\n编译"),  # after Latin or code, the space is wanted
        ("- 列表\n  续行", "- 列表续行"),
        ("依次是 `w`、\n`w²`，\n`jax.grad` 沿着", "依次是 `w`、`w²`，`jax.grad` 沿着"),  # no space after ，、
        ("要点如下：\n- 第一\n- 第二", "要点如下：\n- 第一\n- 第二"),  # unless a list item starts there
        ("对照表：\n| a | b |", "对照表：\n| a | b |"),  # or a table row
    ],
)
def test_zh_source_line_breaks_between_chinese_characters_are_joined(source, shown):
    from tutor.course.cjk import join_wrapped

    assert join_wrapped(source) == shown


def test_markdown_as_meant_passes_the_lint(tmp_path):
    en = """
         Write `f(x)` as *pure*, **really**: a * b, the file `<home>/x`.

         - a list item:

           ```text
           s = rho * s + (1 - rho) * g**2
           ```

         | a | b |
         |---|---|
         | 1 | 2 |
         """
    zh = "在 `jax.jit` 下这会\n抛出错误，见 6.5 节。\n\n```python\n# 注释\n中文 字符\n```"
    zh_code = "调用 `f(a, b)`：形状为 (T, D)，`x: 中文` 也是代码。"
    course = make_course(tmp_path, {"1.0.yaml": GOOD_LESSON, "exercises/demo.yaml": _prompt(en, zh + "\n\n" + zh_code)})
    loaded, problems = read_course(course, lint=True)
    assert problems == [], problems
    # A source line break between two Chinese characters is not a space on screen; code keeps its lines.
    assert loaded.exercise("demo").prompt.zh.startswith(
        "在 `jax.jit` 下这会抛出错误，见 6.5 节。\n\n```python\n# 注释\n中文 字符\n```\n"
    )


def test_every_text_has_both_languages():
    """The loader rejects missing translations; here: none of them is blank or an obvious copy."""
    course, _ = read_course(ROOT)
    texts = []
    for ex in course.exercises:
        texts += (
            [ex.title, ex.prompt, *ex.hints] + [c.name for c in ex.checks] + [c.advice for c in ex.checks if c.advice]
        )
    for lesson in course.lessons:
        texts += [lesson.title] + [b.text for b in lesson.blocks if b.text]
        for cell in (c for c in lesson.cells if c.predict):
            texts += [cell.predict.question] + [o.text for o in cell.predict.options.values() if o.text]
    for q in course.quiz:
        texts += [q.prompt, *q.options.values(), *q.explanations.values()]
    for t in texts:
        assert t.zh.strip() and t.en.strip()
        prose = re.sub(r"`[^`]*`", "", t.en)  # code reads the same in both languages
        if t.zh == t.en and re.search(r"\b[A-Za-z]+ [a-z]+ [a-z]+ [a-z]+\b", prose):
            raise AssertionError(f"untranslated text: {t.en[:60]!r}")


def test_the_programs_own_chinese_follows_the_course_rules():
    """The UI's, the CLI's and the reports' own zh strings are linted like the course's prose:
    full-width punctuation, no space between Chinese characters, the glossary's terms."""
    import importlib

    from tutor.course.markdown_lint import markdown_problems

    found = []
    modules = (
        "tutor.cli.main",
        "tutor.terminal.render",
        "tutor.progress.reports",
        "tutor.doctor.report_text",
        "tutor.ui.texts",
    )
    for name in (*modules, "tutor.ui.screens.doctor"):
        module = importlib.import_module(name)
        for table_name in ("MSG", "WORDS", "UI", "KEY_LABELS", "TEXTS"):
            for key, text in getattr(module, table_name, {}).items():
                zh = re.sub(r"\{[^{}]*\}", "x", text.zh)  # a placeholder reads as a word
                found += [f"{name}.{table_name}[{key!r}]: {m}" for _, m in markdown_problems(zh, "zh")]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "zh, expected",
    [
        ("先跟踪一次。", "跟踪 is written 追踪"),
        ("每次都重编译。", "重编译 is written 重新编译"),
        ("【新】状态", "【新】 is written **新**"),
        ('报错（"shape mismatch"）', "ASCII quote in Chinese prose"),
        ("写成 `f(a，b)` 即可。", "full-width '，' inside code `f(a，b)`"),
        # the audit's three (welford, static-lr, 6.8), each missed by the rules before
        ("第 k 项是 xs[0..k](到该位置为止读过的数据)的方差", "read as a Markdown link"),
        ("`a = 1`,`b = 2`，以及 `c`。", "ASCII ',' between code spans"),
        ("```\njaxstate-tutor watch   # 下一道练习,每次保存都检查\n```", "ASCII punctuation in a Chinese comment"),
    ],
)
def test_the_chinese_glossary_and_punctuation_are_enforced(zh, expected):
    from tutor.course.markdown_lint import markdown_problems

    found = [m for _, m in markdown_problems(zh, "zh")]
    assert any(expected in m for m in found), found


@pytest.mark.parametrize(
    "text, lang",
    [
        ("see [the docs](https://docs.jax.dev) and `a`, `b`", "en"),  # a real link; English commas
        ("```python\nx = {'a': 1, 'b': 2}  # 一个字典，两个键\n```", "zh"),  # ASCII in the code, not the comment
        ("`a` 和 `b`，以及 `c`。", "zh"),
    ],
)
def test_what_the_new_chinese_rules_leave_alone(text, lang):
    from tutor.course.markdown_lint import markdown_problems

    assert markdown_problems(text, lang) == []


@pytest.mark.parametrize(
    ("call", "said"),
    [
        ("", "never calls expect_no_hidden_state"),
        ('expect_no_hidden_state(learner, f, label="f()", skip={"pure": "why"})', "skips 'pure': the parts are"),
        ('expect_no_hidden_state(learner, f, label="f()", skip={"same-output": ""})', "without a reason"),
        ('expect_no_hidden_state(learner, f, label="f()", skip=SKIPPED)', "must be a dict literal"),
    ],
)
def test_validate_names_an_exercise_without_the_hidden_state_checks(tmp_path, call, said):
    """Every exercise gets the library's hidden-state checks unless it skips a part by name with a
    reason: validate says which checks.py does not, and a plain load (a learner's run) is not stopped."""
    checks = GOOD_CHECKS.replace('expect_no_hidden_state(learner, f, label="f()")', call or "None")
    course = make_course(
        tmp_path, {"1.0.yaml": GOOD_LESSON, "exercises/demo.yaml": GOOD_EXERCISE, "exercises/demo/checks.py": checks}
    )
    found = [str(p) for p in read_course(course, lint=True)[1]]
    assert any("exercises/demo/checks.py" in p and said in p for p in found), found
    assert read_course(course)[1] == []


def test_a_part_skipped_with_its_reason_is_no_problem(tmp_path):
    skipped = 'expect_no_hidden_state(learner, f, label="f()", skip={"input-untouched": "f takes nothing"})'
    checks = GOOD_CHECKS.replace('expect_no_hidden_state(learner, f, label="f()")', skipped)
    course = make_course(
        tmp_path, {"1.0.yaml": GOOD_LESSON, "exercises/demo.yaml": GOOD_EXERCISE, "exercises/demo/checks.py": checks}
    )
    assert not [p for p in read_course(course, lint=True)[1] if "hidden" in str(p)]
