"""The documents `list --json` and `progress --json` print (docs/CONTRACTS.md), built from the owner."""

from __future__ import annotations

from typing import Any

from tutor.i18n import table
from tutor.progress.asking import answered_right, first_try_score
from tutor.progress.misconceptions import DRILL, misconceptions
from tutor.progress.path import Step, checkpoint_questions, course_path

from .state import LearnerState

WORDS = table(
    {
        "first_now": {"en": "first try {first}/{n}, now {now}/{n}", "zh": "首次 {first}/{n}，现在 {now}/{n}"},
        "now": {"en": "now {now}/{n}", "zh": "现在 {now}/{n}"},
        "missed_head": {
            "en": "Misconceptions your answers still show: {n} of the {tested} they tested",
            "zh": "你的答案仍显示出的误解：测到的 {tested} 个中有 {n} 个",
        },
        "none_missed": {
            "en": "Misconceptions your answers tested: {tested}; none is still answered wrong",
            "zh": "误解：你的答案测到的 {tested} 个，目前都没有再答错",
        },
        "review": {"en": "review lesson {lesson}; wrong now: {where}", "zh": "复习第 {lesson} 节；目前答错：{where}"},
        "in_checkpoint": {"en": "checkpoint {lesson}", "zh": "第 {lesson} 节小测"},
        "in_quiz": {"en": "quiz question {id}", "zh": "测验第 {id} 题"},
        "in_drill": {"en": "spot-the-bug {id}", "zh": "找错练习 {id}"},
        "list_sep": {"en": ", ", "zh": "、"},
    }
)


def score_text(first: int | None, now: int, n: int, answered: int, lang: str) -> str:
    """A score as every screen and command says it: what the learner knew the first time beside
    where they are now ("first try 4/8, now 8/8"); "-" before any answer."""
    if first is not None:
        return WORDS["first_now"].get(lang).format(first=first, now=now, n=n)
    return WORDS["now"].get(lang).format(now=now, n=n) if answered else "-"


def misconception_report(state: LearnerState, lang: str) -> tuple[str, list[tuple[str, str]]] | None:
    """What the progress screen and `progress` say about misconceptions: a heading, and for each
    belief still missed its text and where to look (the lesson, the questions answered wrong);
    None until some question that tests one is answered."""
    found = misconceptions(state.loaded_course, state)
    if not found.tested:
        return None
    if not found.missed:
        return WORDS["none_missed"].get(lang).format(tested=found.tested), []
    head = WORDS["missed_head"].get(lang).format(n=len(found.missed), tested=found.tested)
    lines = []
    for missed in found.missed:
        places = dict.fromkeys(
            WORDS["in_drill"].get(lang).format(id=qid)
            if lesson == DRILL
            else WORDS["in_checkpoint"].get(lang).format(lesson=lesson)
            if lesson
            else WORDS["in_quiz"].get(lang).format(id=qid)
            for lesson, qid in missed.wrong
        )  # one mention of a checkpoint however many of its questions are wrong
        where = WORDS["list_sep"].get(lang).join(places)
        belief = missed.misconception
        lines.append((belief.text.get(lang), WORDS["review"].get(lang).format(lesson=belief.lesson, where=where)))
    return head, lines


def checkpoint_scores(state: LearnerState, lesson_id: str) -> tuple[int | None, int, int, int]:
    """(first-try score, right now, questions, answered) of a lesson's checkpoint."""
    questions = checkpoint_questions(state.loaded_course, lesson_id)
    now = sum(answered_right(q, state) for q in questions)
    answered = sum(state.question(q.id).answered for q in questions)
    return first_try_score(questions, state), now, len(questions), answered


def drill_scores(state: LearnerState, lesson_id: str) -> tuple[int | None, int, int, int]:
    """(first-try score, right now, drills, tried) of a lesson's spot-the-bug drills, as a checkpoint's."""
    drills = state.loaded_course.drills_of(lesson_id)
    records = [state.drill(d.id) for d in drills]
    firsts = [r.first_correct for r in records]
    first = None if any(f is None for f in firsts) else sum(1 for f in firsts if f)
    return first, sum(1 for r in records if r.correct), len(drills), sum(1 for r in records if r.answered)


def list_document(state: LearnerState, lang: str) -> dict[str, Any]:
    """Lessons, exercises in path order, and the quiz, with their status; titles in `lang`."""
    course = state.loaded_course
    on_path = (course.exercise(s.id) for s in course_path(course) if s.kind == "exercise")
    exercises = [e for e in on_path if e is not None]  # the path is made of the course's own exercises
    summary = state.summary()
    return {
        # beside the contract's keys: the course's own id and title
        "course": {"id": course.id, "title": course.title.get(lang)},
        "lessons": [
            {"id": l.id, "title": l.title.get(lang), "status": state.lesson_status(l.id)} for l in course.lessons
        ],
        "exercises": [
            {"id": e.id, "lesson": e.lesson, "title": e.title.get(lang), "status": state.exercise_status(e.id)}
            for e in exercises
        ],
        "quiz": {
            "questions": summary.quiz_questions,
            "answered": summary.quiz_answered,
            "best_score": summary.quiz_best,
            # beside the contract's keys: the first full try, and the latest answers
            "first_score": summary.quiz_first,
            "score": summary.quiz_now,
        },
        "checkpoints": _checkpoints(state),
    }


def _checkpoints(state: LearnerState) -> list[dict[str, Any]]:
    out = []
    for c in state.loaded_course.checkpoints:
        first, now, n, _ = checkpoint_scores(state, c.lesson)
        status = state.step_status(Step("checkpoint", c.lesson))
        out.append({"lesson": c.lesson, "status": status, "questions": n, "first_score": first, "score": now})
    return out


def progress_document(state: LearnerState) -> dict[str, Any]:
    """Every recorded exercise and lesson, the quiz, and (beside the contract) each cell's guess."""
    summary = state.summary()
    return {
        "exercises": {
            k: {
                "status": r.status,
                "attempts": r.attempts,
                "hints_shown": r.hints_shown,
                "solution_viewed": r.solution_viewed,
                "first_passed_at": r.first_passed_at,
                "last_attempt_at": r.last_attempt_at,
            }
            for k, r in state.exercises_seen().items()
        },
        "lessons": {k: {"status": status} for k, status in state.lessons_seen().items()},
        "quiz": {
            "answers": dict(state.quiz_answers()),
            "best_score": state.quiz_best_score(),
            "attempts": state.quiz_attempts(),
            "first_score": summary.quiz_first,
            "score": summary.quiz_now,
        },
        # extra keys beside the contract's: every checkpoint and quiz question's record
        "checkpoints": _checkpoints(state),
        "questions": {
            q.id: {
                "answer": r.answer,
                "correct": answered_right(q, state),
                "first_correct": r.first_correct,
                "tries": r.tries,
                "variants": list(r.variants),
                # every answer kept (the first first): what `grade` judges again against the course
                "given": [g.as_dict() for g in r.given],
            }
            for q in state.loaded_course.questions()
            if (r := state.question(q.id)).answered
        },
        # each cell's predict guess and what the run showed
        "predictions": {
            k: {"answer": p.answer, "shown": p.shown, "correct": p.correct} for k, p in state.predictions().items()
        },
        # each spot-the-bug drill tried: the latest line and belief, right or not, and the first try
        "drills": {
            d.id: {
                "line": dr.line,
                "belief": dr.belief,
                "correct": dr.correct,
                "first_correct": dr.first_correct,
                "tries": dr.tries,
            }
            for d in state.loaded_course.drills
            if (dr := state.drill(d.id)).answered
        },
        # the review: whether it is on, what is due today (the learner's day), and the schedule;
        # drills answered wrong by their id, with the drill today's review asks for each
        "review": {
            "on": state.review_on(),
            "due_today": [q.id for q in state.reviews_due()],
            "items": {k: {"step": i.step, "due": i.due} for k, i in state.review_items().items()},
            "drills_due_today": {r.item: r.drill.id for r in state.drill_reviews_due()},
            "drills": {
                k: {"step": i.step, "due": i.due, "shown": list(i.shown)} for k, i in state.review_drills().items()
            },
        },
    }
