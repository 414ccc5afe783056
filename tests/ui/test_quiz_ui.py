"""The quiz and the checkpoints as a learner takes them (Pilot at 80x24): scores that keep the
first try apart, a checkpoint done only when every answer is right, and template questions
whose retry asks something new and whose answer a worker computed."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("textual")

from tutor.course import read_course
from tutor.ui.app import make_app
from tutor.ui.mark_styles import Marks

ROOT = Path(__file__).resolve().parents[2]
COURSE, _PROBLEMS = read_course(ROOT)
# The small course of the snapshots: a quiz of two lettered questions, for what any quiz does
# (walking the shipped quiz's eight took 120 s of the fast tier on a loaded box).
FIXTURE = ROOT / "tests" / "fixtures" / "course"
SMALL, _ = read_course(FIXTURE)
SIZE = (80, 24)


def new_app(home: Path, sandbox, lang: str = "en", course=COURSE):
    app = make_app(home, lang, course=(course, []), sandbox=sandbox)
    app.marks = Marks(ascii_only=False)
    return app


def wrong_letter(q) -> str:
    return next(x for x in "ABCD" if x != q.answer)


def lettered_quiz():
    if not COURSE.quiz or any(q.numeric for q in COURSE.quiz):
        pytest.skip("the test answers a quiz of lettered questions")
    return COURSE.quiz


def test_quiz_first_try_stays_beside_the_retry_everywhere_scores_appear(home, fake_sandbox, tui, cli_env):
    """Half right, then the wrong half retried right: first try 1/2, now 2/2 on the end screen,
    the outline, the progress screen and `progress` / `list`, in both languages."""
    quiz = SMALL.quiz
    assert len(quiz) == 2 and not any(q.numeric for q in quiz)
    n = len(quiz)
    right_first = n // 2

    async def body():
        from tutor.ui.screens.outline import OutlineScreen
        from tutor.ui.screens.progress import ProgressScreen
        from tutor.ui.screens.quiz import QuizScreen

        app = new_app(home, fake_sandbox, course=SMALL)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("z")
            await tui.until(pilot, lambda: isinstance(app.screen, QuizScreen), 10, "the quiz")
            screen = app.screen
            for i, q in enumerate(quiz):
                letter = q.answer if i < right_first else wrong_letter(q)
                await pilot.press(screen.shown(letter).lower(), "enter")
                await pilot.pause()
                assert ("Right!" in screen.query_one("#q-feedback").source) == (i < right_first)
                await pilot.press("enter")
                await pilot.pause()
            assert screen.finished
            end = screen.query_one("#q-prompt").source
            assert f"first try {right_first}/{n}, now {right_first}/{n}" in end, end
            await pilot.press("r")
            await tui.until(pilot, lambda: app.screen is not screen and isinstance(app.screen, QuizScreen), 10, "retry")
            retry = app.screen
            assert [q.id for q in retry.questions] == [q.id for q in quiz[right_first:]]
            for _ in retry.questions:  # each as asked now: a sibling of the one answered, where it has one
                await pilot.press(retry.shown(retry.question.answer).lower(), "enter", "enter")
                await pilot.pause()
            end = retry.query_one("#q-prompt").source
            assert f"first try {right_first}/{n}, now {n}/{n}" in end, end
            await pilot.press("escape")
            await tui.until(pilot, lambda: isinstance(app.screen, OutlineScreen), 10, "the outline")
            await pilot.pause()
            outline = tui.plain(app.screen.query_one("#summary")) + str(app.screen.query_one("OptionList").options)
            assert f"first try {right_first}/{n}, now {n}/{n}" in outline
            await pilot.press("p")
            await tui.until(pilot, lambda: isinstance(app.screen, ProgressScreen), 10, "progress")
            assert f"first try {right_first}/{n}, now {n}/{n}" in tui.plain(app.screen.query_one("#progress-quiz"))
            await pilot.press("ctrl+l")  # 中文
            await pilot.pause()
            assert f"首次 {right_first}/{n}，现在 {n}/{n}" in tui.plain(app.screen.query_one("#progress-quiz"))
            await tui.until(pilot, lambda: app.session.state.wait_saved(0), 10, "the background saves")

    asyncio.run(body())
    env = cli_env(home) | {"JAXSTATE_TUTOR_COURSE": str(FIXTURE)}
    doc = json.loads(
        subprocess.run(
            [sys.executable, "-m", "tutor", "progress", "--json"], capture_output=True, text=True, env=env, check=True
        ).stdout
    )
    # The one round scored right_first; the retry of the wrong half is not a round of its own.
    assert (doc["quiz"]["first_score"], doc["quiz"]["score"], doc["quiz"]["best_score"]) == (
        right_first,
        n,
        right_first,
    )
    assert doc["quiz"]["attempts"] == 1
    assert len(doc["quiz"]["answers"]) == n  # the contract's key keeps its meaning: the latest letters
    for lang, words in (
        ("en", f"first try {right_first}/{n}, now {n}/{n}"),
        ("zh", f"首次 {right_first}/{n}，现在 {n}/{n}"),
    ):
        for command in ("progress", "list"):
            out = subprocess.run(
                [sys.executable, "-m", "tutor", "--lang", lang, command], capture_output=True, text=True, env=env
            ).stdout
            assert words in out, (lang, command, out)


def checkpoint_with(kind: str):
    """A lesson whose checkpoint has a lettered question and, for kind 'template', a template."""
    for c in COURSE.checkpoints:
        lettered = [q for q in c.questions if not q.numeric]
        templates = [q for q in c.questions if q.numeric]
        if lettered and (templates or kind == "lettered"):
            return c, lettered, templates
    pytest.skip(f"no checkpoint with a {kind} question")


def test_a_half_right_checkpoint_is_partly_done_not_done(home, fake_sandbox, tui):
    c, lettered, _ = checkpoint_with("lettered")
    q = lettered[0]

    async def body():
        from tutor.progress.path import Step
        from tutor.ui.screens.quiz import QuizScreen

        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            app.push_screen(QuizScreen([q], checkpoint=c.lesson))
            await pilot.pause()
            screen = app.screen
            await pilot.press(screen.shown(q.answer).lower(), "enter", "enter")
            await pilot.pause()
            step = Step("checkpoint", c.lesson)
            progress = app.session.progress
            if len(c.questions) > 1:  # one of several right: partly done
                assert progress.step_status(step) == "started" and not progress.is_done(step)
                assert "r asks the wrong ones again" in screen.query_one("#q-prompt").source
            # a wrong answer to a question that was right undoes "done"
            app.switch_screen(QuizScreen([q], checkpoint=c.lesson))
            await pilot.pause()
            screen = app.screen
            await pilot.press(screen.shown(wrong_letter(screen.question)).lower(), "enter")
            await pilot.pause()
            assert progress.step_status(step) == "started" and not progress.is_done(step)
            record = progress.question(q.id)
            assert (record.first_correct, record.correct, record.tries) == (True, False, 2)

    asyncio.run(body())


@pytest.mark.slow  # runs each drawn variant in a real worker
def test_a_template_retry_draws_a_new_variant_answered_by_a_worker(home, sandbox, tui):
    """The number the learner is graded against is what a worker printed for the variant shown;
    a retry shows other numbers. A wrong answer first, then the computed one."""
    _, _, templates = checkpoint_with("template")
    q = templates[0]

    async def body():
        from tutor.ui.screens.quiz import QuizScreen

        app = new_app(home, sandbox)
        async with app.run_test(size=SIZE) as pilot:
            app.push_screen(QuizScreen([q], checkpoint=q.lesson, rng=random.Random(1)))
            await pilot.pause()
            screen = app.screen
            first_variant, first_prompt = screen.variant, screen.query_one("#q-prompt").source
            for key in "-987654":  # no trace count or position is negative
                await pilot.press(key)
            await pilot.press("enter")
            await tui.until(pilot, lambda: screen.graded is not None, tui.run_deadline_s, "the worker's answer")
            assert screen.graded is False
            # the answer is what the variant's own run prints, computed here again independently
            expected = q.template.shown(sandbox.run_cell(q.template.cell(q.id, first_variant)).result().stdout)
            assert screen.computed == expected
            assert f"the run printed {expected}" in screen.query_one("#q-feedback").source
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("r")
            await tui.until(pilot, lambda: app.screen is not screen, 10, "the retry")
            retry = app.screen
            assert retry.variant != first_variant
            assert retry.query_one("#q-prompt").source != first_prompt  # new numbers on screen
            await tui.until(pilot, lambda: retry.verdict is not None, tui.run_deadline_s, "the retry's answer")
            for key in retry.computed:
                await pilot.press(key)
            await pilot.press("enter")
            await pilot.pause()
            assert retry.graded is True and "Right!" in retry.query_one("#q-feedback").source
            record = app.session.progress.question(q.id)
            assert (record.first_correct, record.correct, record.tries) == (False, True, 2)
            assert list(record.variants) == [first_variant, retry.variant]

    asyncio.run(body())


def test_variants_are_drawn_unseen_first_then_never_the_last_one_again():
    from tutor.course.model import Question, Template
    from tutor.i18n import Bilingual
    from tutor.progress import Snapshot, normalize
    from tutor.progress.asking import draw_variant

    t = Template(
        variants=({"n": "1"}, {"n": "2"}, {"n": "3"}), code="print($n)", reveal="(\\d)", explain=Bilingual.same("x")
    )
    q = Question("t", Bilingual.same("$n"), {}, "", {}, template=t)
    rng = random.Random(0)

    def seen(*drawn):
        return Snapshot(normalize({"questions": {"t": {"variants": list(drawn)}}})[0])

    assert {draw_variant(q, seen(0, 2), rng) for _ in range(20)} == {1}
    assert {draw_variant(q, seen(0, 2, 1), rng) for _ in range(40)} == {0, 2}  # all seen: any but the last


def test_chinese_feedback_has_no_space_after_a_full_width_colon(home, fake_sandbox, tui):
    quiz = lettered_quiz()
    q = quiz[0]

    async def body():
        from tutor.ui.screens.quiz import QuizScreen

        app = new_app(home, fake_sandbox, lang="zh")
        async with app.run_test(size=SIZE) as pilot:
            app.push_screen(QuizScreen([q]))
            await pilot.pause()
            screen = app.screen
            await pilot.press(screen.shown(wrong_letter(q)).lower(), "enter")
            await pilot.pause()
            feedback = screen.query_one("#q-feedback").source
            assert "：** " not in feedback and "你的选择" in feedback and "正确答案" in feedback

    asyncio.run(body())


def test_the_review_names_each_wrong_question_by_its_number_and_keeps_its_code(home, fake_sandbox, tui):
    """A checkpoint's review: "Question 2 of 3" as it was asked, the prose that asks, and the code the
    question is about (a question that starts with code used to show a bare ```python)."""
    c = next((c for c in COURSE.checkpoints if any(not q.numeric and "```" in q.prompt.en for q in c.questions)), None)
    if c is None:
        pytest.skip("no lettered checkpoint question with code")
    everything = list(c.questions)
    i, q = next((i, q) for i, q in enumerate(everything) if not q.numeric and "```" in q.prompt.en)
    code_line = next(l for l in q.prompt.en.split("```")[1].splitlines()[1:] if l.strip())

    async def body():
        from tutor.ui.screens.quiz import QuizScreen

        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            app.push_screen(QuizScreen([q], checkpoint=c.lesson))
            await pilot.pause()
            screen = app.screen
            await pilot.press(screen.shown(wrong_letter(q)).lower(), "enter", "enter")
            await tui.until(pilot, lambda: "To review" in screen.query_one("#q-prompt").source, 10, "the review")
            review = screen.query_one("#q-prompt").source.split("To review", 1)[1]
            assert f"Question {i + 1} of {len(everything)}" in review, review
            assert code_line.strip() in review and "✗ ```" not in review, review
            assert review.count("`") % 2 == 0, review

    asyncio.run(body())


def test_every_lettered_question_has_a_sibling_to_ask_on_a_retry():
    """A retry asks anew: every lettered checkpoint and quiz question has another form."""
    bare = [q.id for q in COURSE.questions() if not q.numeric and not q.siblings]
    assert bare == [], bare


def test_a_retried_question_is_never_the_one_just_answered(home, fake_sandbox, tui):
    """Each quiz question answered wrong, then retried: every retry asks a sibling, not the question
    just answered reshuffled; its answer is judged against the sibling; the end review names the
    form that was asked last."""
    quiz = lettered_quiz()

    async def body():
        from tutor.ui.screens.quiz import QuizScreen

        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("z")
            await tui.until(pilot, lambda: isinstance(app.screen, QuizScreen), 10, "the quiz")
            screen = app.screen
            first = {}
            for _ in quiz:
                asked = screen.question
                first[asked.id] = asked.prompt.en
                await pilot.press(screen.shown(wrong_letter(asked)).lower(), "enter", "enter")
                await pilot.pause()
            assert screen.finished
            await pilot.press("r")
            await tui.until(pilot, lambda: app.screen is not screen and isinstance(app.screen, QuizScreen), 10, "retry")
            retry = app.screen
            for _ in retry.questions:
                asked = retry.question
                assert asked.prompt.en != first[asked.id], asked.id  # another question, not a reshuffle
                await pilot.press(retry.shown(asked.answer).lower(), "enter")
                await pilot.pause()
                assert "Right!" in retry.query_one("#q-feedback").source
                await pilot.press("enter")
                await pilot.pause()
            assert retry.finished and retry.score == len(quiz)

    asyncio.run(body())
