"""Misconception tags: every checkpoint and quiz question names the belief it tests (one entry of
lessons/misconceptions.yaml), `validate` says where a tag or an entry is wrong, and progress says
which beliefs the learner's latest answers still show."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.progress import ProgressStore, changes
from tutor.progress.misconceptions import misconceptions
from tutor.progress.reports import misconception_report
from tutor.progress.state import LearnerState

ROOT = Path(__file__).resolve().parents[2]

LESSON = """\
lesson:
  id: "1.0"
  order: 1
  title: {en: Intro, zh: 导论}
  blocks:
    - text: {en: Hello, zh: 你好}
"""
OPTIONS = """\
      options: {A: {en: one, zh: 一}, B: {en: two, zh: 二}, C: {en: three, zh: 三}, D: {en: four, zh: 四}}
      answer: B
      explain: {A: {en: wrong, zh: 不对}, B: {en: right, zh: 对}, C: {en: wrong, zh: 不对}, D: {en: wrong, zh: 不对}}
"""
CHECKPOINT = (
    """\
checkpoint:
  lesson: "1.0"
  questions:
    - id: q-one
      misconception: belief-a
      prompt: {en: Which?, zh: 哪个？}
"""
    + OPTIONS
    + """\
      siblings:
        - prompt: {en: Which one?, zh: 哪一个？}
"""
    + textwrap.indent(OPTIONS, "    ")
    + """\
    - id: q-two
      misconception: belief-b
      prompt: {en: And which?, zh: 那么哪个？}
"""
    + OPTIONS
)
CATALOGUE = """\
misconceptions:
  - id: belief-a
    lesson: "1.0"
    text: {en: thinking a, zh: 以为甲}
  - id: belief-b
    lesson: "1.0"
    text: {en: thinking b, zh: 以为乙}
"""


def problems(tmp_path: Path, changed: dict[str, str | None] | None = None) -> list[str]:
    """The problems of a small course: a lesson, its checkpoint, the catalogue; `changed` replaces
    files by name (None: leaves one out). The course read is left on `problems.course`."""
    texts = {"1.0.yaml": LESSON, "checkpoints/1.0.yaml": CHECKPOINT, "misconceptions.yaml": CATALOGUE}
    texts.update(changed or {})
    for name, text in texts.items():
        if text is None:
            continue
        path = tmp_path / "lessons" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (tmp_path / "solutions").mkdir(exist_ok=True)
    course, found = read_course(tmp_path)
    problems.course = course
    return [str(p) for p in found]


def test_a_tagged_course_loads_and_a_sibling_tests_its_parents_belief(tmp_path):
    assert problems(tmp_path) == []
    course = problems.course
    assert [m.id for m in course.misconceptions] == ["belief-a", "belief-b"]
    q = course.question("q-one")
    assert q.misconception == "belief-a" and q.asked(1).misconception == "belief-a"
    assert course.misconception("belief-b").text.zh == "以为乙"


@pytest.mark.parametrize(
    "old, new, expected",
    [
        (
            "misconception: belief-b",
            "misconception: belief-c",
            "checkpoints/1.0.yaml:15: question 'q-two' names misconception 'belief-c', which is not in lessons/misconceptions.yaml",
        ),
        ("      misconception: belief-b\n", "", "checkpoints/1.0.yaml:15: question 'q-two' names no misconception"),
        (
            "misconception: belief-b",
            "misconception: belief-a",
            "misconceptions.yaml:5: misconception 'belief-b' is tested by no question",
        ),
    ],
)
def test_a_wrong_or_missing_tag_is_named_with_file_and_line(tmp_path, old, new, expected):
    assert CHECKPOINT.count(old) == 1
    found = problems(tmp_path, {"checkpoints/1.0.yaml": CHECKPOINT.replace(old, new)})
    assert any(expected in p for p in found), found


def test_a_belief_names_a_lesson_that_exists_and_once(tmp_path):
    twice = CATALOGUE + CATALOGUE.split("\n", 1)[1].replace('"1.0"', '"9.9"')
    found = problems(tmp_path, {"misconceptions.yaml": twice})
    assert any("misconception 'belief-a' names lesson '9.9', which does not exist" in p for p in found), found
    assert any("duplicate misconception 'belief-a'" in p for p in found), found


def test_a_wrong_option_may_name_its_own_belief_and_the_question_tag_is_the_default(tmp_path):
    per_option = CHECKPOINT.replace(
        "      misconception: belief-b\n", "      misconception: belief-b\n      beliefs: {A: belief-a}\n"
    )
    assert problems(tmp_path, {"checkpoints/1.0.yaml": per_option}) == []
    q = problems.course.question("q-two")
    assert [q.belief(0, letter) for letter in "ACD"] == ["belief-a", "belief-b", "belief-b"]
    assert q.tested_beliefs() == {"belief-a", "belief-b"}


@pytest.mark.parametrize(
    "beliefs, expected",
    [
        # no question-level default: the options not named show nothing
        ("{A: belief-a, C: belief-b}", "question 'q-two': wrong option D maps to no belief"),
        ("{A: belief-a, C: belief-b, D: belief-z}", "question 'q-two' names misconception 'belief-z', which is not in"),
        ("{A: belief-a, B: belief-b, C: belief-b, D: belief-b}", "names option B, which is the right answer"),
        ("{E: belief-a}", "unknown key 'E' in question 'q-two' beliefs"),
    ],
)
def test_validate_says_which_wrong_option_maps_to_no_belief_or_to_an_unknown_one(tmp_path, beliefs, expected):
    tagged = CHECKPOINT.replace("      misconception: belief-b\n", f"      beliefs: {beliefs}\n")
    found = problems(tmp_path, {"checkpoints/1.0.yaml": tagged})
    assert any(expected in p for p in found), found


def test_a_sibling_names_its_own_beliefs(tmp_path):
    sibling = CHECKPOINT.replace(
        "        - prompt: {en: Which one?, zh: 哪一个？}\n",
        "        - prompt: {en: Which one?, zh: 哪一个？}\n          beliefs: {D: belief-b}\n",
    )
    assert problems(tmp_path, {"checkpoints/1.0.yaml": sibling}) == []
    q = problems.course.question("q-one")
    assert (q.belief(0, "D"), q.belief(1, "D"), q.belief(1, "A")) == ("belief-a", "belief-b", "belief-a")


def test_a_course_without_a_catalogue_needs_no_tags(tmp_path):
    untagged = CHECKPOINT.replace("      misconception: belief-a\n", "").replace("      misconception: belief-b\n", "")
    assert problems(tmp_path, {"checkpoints/1.0.yaml": untagged, "misconceptions.yaml": None}) == []


def test_every_shipped_question_names_a_belief_that_a_lesson_sets_right():
    course, found = read_course(ROOT)
    assert not found, found[:3]
    lessons = {l.id for l in course.lessons}
    assert len(course.misconceptions) >= 10
    for q in course.questions():
        assert q.tested_beliefs(), q.id
        for belief in map(course.misconception, q.tested_beliefs()):
            assert belief is not None and belief.lesson in lessons, q.id
            assert belief.text.en.startswith("thinking ") and belief.text.zh.startswith("以为"), belief.id
    # issue 52: a Ref question names a Ref belief
    assert "ref-write-at-trace" in course.question("cp63-ref-or-global").tested_beliefs()


# ---- what progress says ---------------------------------------------------------------------


@pytest.fixture
def state(tmp_path):
    course, _ = read_course(ROOT)
    return LearnerState(ProgressStore(tmp_path), course).refresh()


def test_nothing_is_said_before_a_tagged_question_is_answered(state):
    assert misconception_report(state, "en") is None
    assert misconceptions(state.course, state).tested == 0


def test_a_wrong_latest_answer_names_its_belief_lesson_and_where_and_a_right_one_clears_it(state):
    state.save_now(changes.answer, "cp61-global-count", "3", False, False)
    state.save_now(changes.answer, "cp61-see-the-loss", "A", False, False)  # the same belief, same checkpoint
    state.save_now(changes.answer, "1", "A", False, True)  # and in the quiz
    state.save_now(changes.answer, "cp64-leaf-count", "4", True, False)  # another belief, answered right
    head, missed = misconception_report(state, "en")
    assert head == "Misconceptions your answers still show: 1 of the 2 they tested"
    belief = state.course.misconception("trace-time-python")
    assert missed == [(belief.text.en, "review lesson 6.1; wrong now: checkpoint 6.1, quiz question 1")]
    _, missed_zh = misconception_report(state, "zh")
    assert missed_zh == [(belief.text.zh, "复习第 6.1 节；目前答错：第 6.1 节小测、测验第 1 题")]

    for qid, given, in_quiz in (("cp61-global-count", "2", False), ("cp61-see-the-loss", "C", False), ("1", "C", True)):
        state.save_now(changes.answer, qid, given, True, in_quiz)
    found = misconceptions(state.course, state)
    assert found.missed == () and found.tested == 2 and found.set_right == 2
    head, missed = misconception_report(state, "en")
    # not "none of the 2 your answers tested"
    assert missed == [] and head.endswith("tested: 2; none is still answered wrong")


def test_the_report_names_the_belief_of_the_option_picked_not_the_questions_tag(state):
    # cp63-ref-under-vmap tests vmap-loops-examples, but its option C says a Ref write ran only
    # while tracing: that learner is told the Ref belief, and not that vmap loops over examples
    state.save_now(changes.answer, "cp63-ref-under-vmap", "C", False, False)
    head, missed = misconception_report(state, "en")
    ref = state.course.misconception("ref-write-at-trace")
    assert missed == [(ref.text.en, "review lesson 6.3; wrong now: checkpoint 6.3")]
    assert head.endswith("1 of the 3 they tested")  # the options' beliefs and the question's own
    state.save_now(changes.answer, "cp63-ref-under-vmap", "A", False, False)
    loops = state.course.misconception("vmap-loops-examples")
    assert [text for text, _ in misconception_report(state, "zh")[1]] == [loops.text.zh]


TEMPLATE = """\
    - id: q-count
      beliefs: [belief-a, belief-b]
      prompt: {en: "How many $what?", zh: "$what_zh有几个？"}
      template:
        variants:
          - {what: calls, what_zh: 调用}
          - {what: traces, what_zh: 追踪}
        code: |
          print("answer:", {"calls": 4, "traces": 2}["$what"])
        reveal: 'answer: (\\d+)'
        explain: {en: "It is $answer.", zh: "是 $answer。"}
"""


@pytest.mark.parametrize("variant, belief", [(0, "belief-a"), (1, "belief-b")])
def test_a_templates_variant_decides_the_belief_a_wrong_number_shows(tmp_path, variant, belief):
    # asked for calls, a trace count shows one belief; asked for traces, a call count the other
    assert problems(tmp_path, {"checkpoints/1.0.yaml": CHECKPOINT + TEMPLATE}) == []
    state = LearnerState(ProgressStore(tmp_path / "home"), problems.course).refresh()
    state.save_now(changes.question_drawn, "q-count", variant)
    state.save_now(changes.answer, "q-count", "3", False, False)
    _, missed = misconception_report(state, "en")
    assert missed == [(problems.course.misconception(belief).text.en, "review lesson 1.0; wrong now: checkpoint 1.0")]


def test_a_template_whose_beliefs_do_not_match_its_variants_is_named(tmp_path):
    one = TEMPLATE.replace("beliefs: [belief-a, belief-b]", "beliefs: [belief-a]")
    found = problems(tmp_path, {"checkpoints/1.0.yaml": CHECKPOINT + one})
    assert any("question 'q-count' beliefs must be a list of 2 belief ids" in p for p in found), found
