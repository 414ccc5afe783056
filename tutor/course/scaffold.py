"""New course files for an author (rustlings' `dev new`): an exercise that validates and stays red
under `verify ID` until written, and a small course that validates and is green from the start.

Only text is made here; `tutor.cli.scaffolding` says what was written. Each refusal is a
ScaffoldError whose message names the cause, in both languages.
"""

from __future__ import annotations

import json
import keyword
import re
from dataclasses import dataclass
from pathlib import Path

from tutor.course.author_rules import MIN_FAILING_CASES, MIN_PASSING_CASES
from tutor.course.cases import CASES, is_mutant
from tutor.course.loader import ID_PATTERN, folder_course_id, read_course
from tutor.errors import TutorError
from tutor.i18n import Bilingual


class ScaffoldError(TutorError):
    """The files cannot be written as asked (a bad or taken id, an unknown lesson, a folder in use)."""

    def __init__(self, en: str, zh: str):
        super().__init__(Bilingual(en=en, zh=zh))


@dataclass(frozen=True)
class Written:
    """What a scaffold wrote: the files (relative to the course root) and the course root."""

    root: Path
    files: tuple[Path, ...]


def function_name(exercise_id: str) -> str:
    """The Python name the learner's file defines for an exercise id ("step-count" -> step_count)."""
    name = re.sub(r"\W", "_", exercise_id)
    return name if name.isidentifier() and not keyword.iskeyword(name) else f"solve_{name}"


# ---- a new exercise: valid, and red until its author writes it -----------------------------------

_EXERCISE_YAML = """\
exercise:
  id: {id}
  lesson: "{lesson}"
  order: {order}
  title:
    en: "TODO: a short title for {id}"
    zh: "TODO：{id} 的简短标题"
  prompt:
    en: |
      TODO: state the interface exactly. For example:

      ```text
      {name}(x) -> ...
      ```
    zh: |
      TODO：准确写出接口。例如：

      ```text
      {name}(x) -> ...
      ```
  hints:  # progressive: vague first, nearly the answer last
    - en: "TODO: a first, vague hint."
      zh: "TODO：第一条提示，先说得含糊一些。"
  checks:  # one entry per @check function in checks.py, in its order
    - id: defines
      name: {{en: defines {name}, zh: 定义了 {name}}}
    - id: no-hidden-state
      name: {{en: "no hidden state: same input, same output; input untouched", zh: "没有隐藏状态：相同输入得到相同输出；不改输入"}}
      advice: {{en: "Everything {name} needs comes in as arguments; everything that changes goes out in its return value.", zh: "{name} 需要的一切都从参数进来，变化的一切都从返回值出去。"}}
    - id: works
      name: {{en: "TODO: what this check judges", zh: "TODO：这项检查评判什么"}}
      advice: {{en: "TODO: where to look when it fails.", zh: "TODO：不通过时该看哪里。"}}
"""

_EXERCISE_CHECKS = '''\
"""The checks of `{id}`. Each judges meaning (values, trace counts, primitives), never the text of
the learner's file; lessons/README.md lists the check library."""

import numpy as np

from tutor.child.library import check, expect_no_hidden_state, fail, is_defined


@check("defines")
def check_defines({name}):
    is_defined({name}={name})


@check("no-hidden-state", depends=["defines"])
def check_no_hidden_state(learner):
    # The library's hidden-state checks on one call (TODO: the arguments the exercise passes).
    expect_no_hidden_state(learner, learner.{name}, np.float32(1.5), label="{name}(1.5)")


@check("works", depends=["defines"])
def check_works({name}):
    # TODO: call {name} and compare with a NumPy float64 reference, e.g.
    #   close({name}(as_float32(x)), 2 * x, what="{name}(x)")
    # Until this is written every file fails here, so `jaxstate-tutor verify {id}` stays red.
    fail(
        "this check is not written yet (lessons/exercises/{id}/checks.py)",
        "这项检查还没有写（lessons/exercises/{id}/checks.py）",
    )
'''

_EXERCISE_STARTER = """\
def {name}(x):
    # TODO: write what the exercise asks
    return x
"""

_EXERCISE_SOLUTION = """\
# TODO: the reference solution of {id}: it must pass every check (`jaxstate-tutor verify {id}`).
def {name}(x):
    return x
"""

_EXERCISE_CASES = {
    # correct variants in other styles: each must pass every check
    "pass_as_written.py": "# TODO: a correct {name} in one style (it must pass every check)\n"
    "def {name}(x):\n    return x\n",
    "pass_another_style.py": "# TODO: a correct {name} written another way (a lambda, a jitted function...)\n"
    "{name} = lambda x: x  # noqa: E731\n",
    # mutants: fail_<check-id>__<what>.py must fail at that check; `# says:` pins its message
    "fail_defines__misspelled.py": "# says: {name}\ndef {name}_(x):\n    return x\n",
    "fail_works__returns_its_input.py": "# TODO: a typical mistake, failing at `works`\ndef {name}(x):\n    return x\n",
    "fail_works__returns_none.py": "# TODO: another typical mistake, failing at `works`\ndef {name}(x):\n    pass\n",
}


def new_exercise(root: Path, exercise_id: str, lesson_id: str) -> Written:
    """Write exercise `exercise_id` of lesson `lesson_id` into the course at `root`: its folder,
    solution and red-team cases. `validate` is clean on them; `verify` fails until written.
    A course that keeps no red team (no tests/cases/ beside its other exercises) gets none: a
    first tests/cases/ would make `validate` ask for every other exercise's cases."""
    if not ID_PATTERN.match(exercise_id):
        raise ScaffoldError(
            f"'{exercise_id}' cannot be an exercise id: ids use only a-z, 0-9, '.' and '-', starting with a letter or digit",
            f"'{exercise_id}' 不能作为练习的 id：id 只能用 a-z、0-9、'.' 和 '-'，并以字母或数字开头",
        )
    course, _ = read_course(root)
    if not (root / "lessons").is_dir():
        raise ScaffoldError(
            f"{root} holds no course (no lessons/ folder); make one with `jaxstate-tutor new-course DIR`",
            f"{root} 里没有课程（没有 lessons/ 文件夹）；可以用 `jaxstate-tutor new-course DIR` 新建一个",
        )
    if course.lesson(lesson_id) is None:
        known = ", ".join(l.id for l in course.lessons) or "none"
        raise ScaffoldError(
            f"the course has no lesson '{lesson_id}' (lessons: {known})",
            f"课程里没有课节 '{lesson_id}'（已有课节：{known}）",
        )
    taken = [
        p
        for p in (
            root / "lessons" / "exercises" / exercise_id,
            root / "solutions" / f"{exercise_id}.py",
            root / CASES / exercise_id,
        )
        if p.exists()
    ]
    if course.exercise(exercise_id) is not None or taken:
        where = ", ".join(str(p) for p in taken) or "the course"
        raise ScaffoldError(
            f"exercise '{exercise_id}' exists already ({where}); choose another id",
            f"练习 '{exercise_id}' 已经存在（{where}）；请换一个 id",
        )
    orders = [e.order for e in course.exercises if e.lesson == lesson_id]
    order = int(max(orders, default=0)) + 1  # after the lesson's last exercise
    fields = {"id": exercise_id, "lesson": lesson_id, "order": order, "name": function_name(exercise_id)}
    folder = Path("lessons") / "exercises" / exercise_id
    files = {
        folder / "exercise.yaml": _EXERCISE_YAML,
        folder / "checks.py": _EXERCISE_CHECKS,
        folder / "starter.py": _EXERCISE_STARTER,
        Path("solutions") / f"{exercise_id}.py": _EXERCISE_SOLUTION,
    }
    if (root / CASES).is_dir() or not course.exercises:
        files |= {CASES / exercise_id / name: text for name, text in _EXERCISE_CASES.items()}
    return _write(root, {path: text.format(**fields) for path, text in files.items()})


assert sum(is_mutant(Path(n)) for n in _EXERCISE_CASES) >= MIN_FAILING_CASES
assert sum(not is_mutant(Path(n)) for n in _EXERCISE_CASES) >= MIN_PASSING_CASES


# ---- a new course: one lesson and one exercise, valid and green ----------------------------------

_COURSE_LESSON = """\
lesson:
  id: "1"                   # quoted: ids are text
  order: 1                  # position in the outline
  title:
    en: A first lesson
    zh: 第一课
  blocks:                   # shown in order: Markdown texts and runnable cells
    - text:
        en: |
          ## A first lesson

          Lessons are YAML files under `lessons/`; each text is Markdown in both
          languages. Run the cell below with Enter in the tutor.
        zh: |
          ## 第一课

          课节是 `lessons/` 下的 YAML 文件；每段文字都是中英两种语言的 Markdown。
          在本教程中按 Enter 运行下面的单元。
    - cell:
        id: first-cell      # unique across the course
        caption:
          en: Doubling an array
          zh: 把数组加倍
        code: |
          import jax.numpy as jnp

          print(jnp.arange(3) * 2)
        expect:             # what the run must show; the course's tests check it
          output_contains: ["[0 2 4]"]
"""

_COURSE_EXERCISE = """\
exercise:
  id: double
  lesson: "1"
  order: 1
  title:
    en: Double it
    zh: 加倍
  prompt:
    en: |
      Write `double(x)`, which returns `2 * x` for a number or an array:

      ```text
      double(x) -> 2 * x
      ```
    zh: |
      写出 `double(x)`，对一个数或一个数组返回 `2 * x`：

      ```text
      double(x) -> 2 * x
      ```
  hints:
    - en: Multiply by two.
      zh: 乘以二。
  checks:
    - id: defines
      name: {en: defines double, zh: 定义了 double}
    - id: doubles
      name: {en: doubles its input, zh: 把输入加倍}
      advice: {en: Return 2 * x., zh: 返回 2 * x。}
    - id: no-hidden-state
      name: {en: "no hidden state: same input, same output", zh: 没有隐藏状态：相同输入得到相同输出}
      advice: {en: Keep nothing between calls., zh: 不要在调用之间保留任何东西。}
"""

_COURSE_CHECKS = '''\
"""The checks of `double`: each judges values against a NumPy float64 reference."""

import numpy as np

from tutor.child.library import as_float32, call, check, close, expect_no_hidden_state, is_defined


@check("defines")
def check_defines(double):
    is_defined(double=double)


@check("doubles", depends=["defines"])
def check_doubles(double):
    x = np.array([0.0, 1.5, -2.0])
    close(call(double, as_float32(x), label="double(x)"), 2 * x, what="double([0, 1.5, -2])")


@check("no-hidden-state", depends=["defines"])
def check_no_hidden_state(learner):
    expect_no_hidden_state(learner, learner.double, as_float32(np.array([1.0, -2.0])), label="double([1, -2])")
'''

_COURSE_CHECKPOINT = """\
checkpoint:                 # the lesson's own questions, asked right after it
  lesson: "1"
  questions:
    - id: cp1-arange-doubled  # unique across every checkpoint and the quiz
      prompt:
        en: What does `print(jnp.arange(3) * 2)` print?
        zh: "`print(jnp.arange(3) * 2)` 输出什么？"
      options:              # each a belief a learner really holds
        A: {en: "`[0 2 4]`", zh: "`[0 2 4]`"}
        B: {en: "`[0 1 2 0 1 2]`", zh: "`[0 1 2 0 1 2]`"}
        C: {en: "`[2 4 6]`", zh: "`[2 4 6]`"}
        D: {en: "`[0 1 2]`", zh: "`[0 1 2]`"}
      answer: A
      explain:              # why each option is right or wrong
        A:
          en: Right. `jnp.arange(3)` is `[0 1 2]`, and `* 2` multiplies each element.
          zh: 正确。`jnp.arange(3)` 是 `[0 1 2]`，`* 2` 把每个元素乘以二。
        B:
          en: That is a Python list times 2, which repeats it; an array multiplies each element.
          zh: 那是 Python 列表乘以 2，会把列表重复一遍；数组则是每个元素相乘。
        C:
          en: "`arange(3)` starts at 0, not 1: it is `[0 1 2]`."
          zh: "`arange(3)` 从 0 开始，而不是从 1 开始：它是 `[0 1 2]`。"
        D:
          en: "`* 2` returns a new array with every element doubled; it does not leave them as they were."
          zh: "`* 2` 返回一个每个元素都加倍的新数组，不会保持原样。"
"""

_COURSE_FILES = {
    Path("lessons") / "1-first.yaml": _COURSE_LESSON,
    Path("lessons") / "checkpoints" / "1.yaml": _COURSE_CHECKPOINT,
    Path("lessons") / "exercises" / "double" / "exercise.yaml": _COURSE_EXERCISE,
    Path("lessons") / "exercises" / "double" / "checks.py": _COURSE_CHECKS,
    Path("lessons")
    / "exercises"
    / "double"
    / "starter.py": "def double(x):\n    # TODO: return twice x\n    return x\n",
    Path("solutions") / "double.py": "def double(x):\n    return 2 * x\n",
    CASES / "double" / "pass_adds_itself.py": "def double(x):\n    return x + x\n",
    CASES / "double" / "pass_lambda.py": "double = lambda x: x * 2  # noqa: E731\n",
    CASES / "double" / "fail_defines__misspelled.py": "# says: double\ndef dubble(x):\n    return 2 * x\n",
    CASES / "double" / "fail_doubles__identity.py": "def double(x):\n    return x\n",
    CASES / "double" / "fail_doubles__squares.py": "def double(x):\n    return x * x\n",
}


_COURSE_YAML = """\
course:
  id: {id}                  # an export names it; `grade` refuses another course's exports
  title:                    # every screen, `list` and the served page show it
    en: {title}
    zh: {title}
  doctor: false             # true once the lessons teach what `jaxstate-tutor doctor` finds
"""


def new_course(root: Path) -> Written:
    """Write a course of one lesson and one exercise into `root` (new, or an empty folder), named
    after the folder (lessons/course.yaml: its id and title, for the author to change)."""
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise ScaffoldError(
            f"{root} exists and is not an empty folder; name a new one",
            f"{root} 已存在且不是空文件夹；请指定一个新的文件夹",
        )
    name = root.resolve().name
    course_yaml = _COURSE_YAML.format(id=folder_course_id(name), title=json.dumps(name, ensure_ascii=False))
    return _write(root, {Path("lessons") / "course.yaml": course_yaml, **_COURSE_FILES})


def _write(root: Path, files: dict[Path, str]) -> Written:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as f:  # never over an author's file
            f.write(text)
    return Written(root, tuple(files))
