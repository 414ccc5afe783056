"""First-try checkpoint and quiz scores judged again from the answers an export holds, against the
instructor's course: a lettered answer against the course's key (of the form it was asked in), a
template's number against what its variant's code prints (run again by `shown`).

What is checked is that a score follows from the answers, and that each answer is right by this
course: a hand-edited "999 of 8", or a first try marked right whose answer was wrong, does not. The
answers are the learner's record too: one who edits the answers themselves, consistently, is not
caught here (nothing signs them), only their score is computed, never taken.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tutor.course.predict import same_number

if TYPE_CHECKING:
    from tutor.course.model import Course, Question

QUIZ = "quiz"  # the part of an answer that belongs to the quiz; a checkpoint's is its lesson id

# shown(question, variant): what that variant of a template question prints; None if its run printed no answer
Shown = Callable[["Question", int], str | None]


@dataclass(frozen=True)
class Score:
    """One part (a lesson's checkpoint, or the quiz) scored again from its first answers."""

    part: str
    questions: int
    right: int | None  # first tries right by the course; None: a first answer is missing or could not be judged
    claimed: object  # what the learner's progress said (None: no claim)
    unjudged: tuple[str, ...] = ()  # question ids without a usable first answer
    lost: tuple[str, ...] = ()  # of those, answered before the tutor kept answers (an honest gap)

    @property
    def supported(self) -> bool:
        """The claim (if any) is what the answers give; no claim is nothing to support."""
        return self.claimed is None or (self.right is not None and self.claimed == self.right)

    @property
    def text(self) -> str:
        """ "5/8" as re-scored; "" when it cannot be (a first answer missing)."""
        return f"{self.right}/{self.questions}" if self.right is not None else ""


def first_answers(answers: Iterable[dict[str, Any]] | None) -> dict[str, dict[str, Any]]:
    """Each question's first answer as the export lists it (try 1); a lost one is left out."""
    firsts: dict[str, dict[str, Any]] = {}
    for a in answers or ():
        qid = a.get("question")
        if isinstance(qid, str) and a.get("try") == 1 and not a.get("lost") and isinstance(a.get("answer"), str):
            firsts.setdefault(qid, a)
    return firsts


def judge(question: Question, answer: dict[str, Any], shown: Shown) -> bool | None:
    """Whether one answer is right by the course: True, False, or None when the course cannot
    say (the template's run printed no answer on this machine)."""
    variant = answer.get("variant", 0)
    if isinstance(variant, bool) or not isinstance(variant, int) or not 0 <= variant < question.variants():
        return False  # asked in a form the course does not have: not an answer to it
    given = answer["answer"]
    if question.numeric:
        expected = shown(question, variant)
        return None if expected is None else same_number(given, expected)
    return bool(given == question.asked(variant).answer)


def rescore(
    course: Course, progress: dict[str, Any], answers: Iterable[dict[str, Any]] | None, shown: Shown
) -> list[Score]:
    """Every checkpoint's and the quiz's first-try score from `answers` (the export's list),
    beside what `progress` claims (`checkpoints[].first_score`, `quiz.first_score`). `shown(q, i)`
    is what variant i of template question q prints (None if the run printed no answer)."""
    firsts = first_answers(answers)
    lost = {a.get("question") for a in answers or () if a.get("try") == 1 and a.get("lost")}
    claims = _claims(progress)
    parts = [(c.lesson, c.questions) for c in course.checkpoints]
    if course.quiz:
        parts.append((QUIZ, course.quiz))
    scores = []
    for part, questions in parts:
        verdicts, unjudged = [], []
        for q in questions:
            first = firsts.get(q.id)
            verdict = judge(q, first, shown) if first is not None else None
            if verdict is None:
                unjudged.append(q.id)
            verdicts.append(verdict)
        right = None if unjudged else sum(bool(v) for v in verdicts)
        gone = tuple(q for q in unjudged if q in lost)
        scores.append(Score(part, len(questions), right, claims.get(part), tuple(unjudged), gone))
    return scores


def _claims(progress: dict[str, Any]) -> dict[str, object]:
    """What the learner's progress says each part's first-try score is; None where it says none."""
    out: dict[str, object] = {}
    quiz = progress.get("quiz")
    if isinstance(quiz, dict):
        out[QUIZ] = quiz.get("first_score")
    checkpoints = progress.get("checkpoints")
    for c in checkpoints if isinstance(checkpoints, list) else []:
        if isinstance(c, dict) and isinstance(c.get("lesson"), str):
            out[c["lesson"]] = c.get("first_score")
    return out
