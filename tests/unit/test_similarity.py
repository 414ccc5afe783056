"""Near-identical hand-ins, measured on the course's own red team: every tests/cases/<id>/pass_*.py
is a correct file written for its own reason, so two of one exercise are honest work that must
not be flagged, and each disguised (every name it binds renamed, its comments rewritten, blank
lines and spaces added) is a copy that must be.

Measured at THRESHOLD 0.8 and MIN_OWN 12 (Jaccard of winnowed fingerprints beyond the starter):
4 of 1,464 same-exercise pairs flagged (0.27 %), all four train-state files that are each the
reference solution with one or two lines changed, that is the same work; 0 pairs of files written
apart. 198 of 221 disguised copies caught, every one at similarity 1.0; the 23 missed are files
with fewer than 12 fingerprints of their own (pure-scale, counter-jit, functional-update: a few
lines everyone writes alike), where only a byte-identical copy is named. Against the reference:
5 of 221 near it, the same train-state edits of it. At 0.7: 11 honest pairs; at 0.9: 1, with
the same catch: 0.8 keeps a margin on both sides.
"""

from __future__ import annotations

import io
import itertools
import re
import tokenize
from pathlib import Path

import pytest

from tutor.classroom import similarity as sim
from tutor.course import read_course
from tutor.course.cases import CASES, correct_variants

ROOT = Path(__file__).resolve().parents[2]
COURSE = read_course(ROOT, lint=False)[0]
# Red-team files made by editing the reference in a line or two: the same work, rightly flagged.
EDITS_OF_THE_REFERENCE = {"train-state"}


def disguise(source: str) -> str:
    """What a copier does to hide a copy: rename every name the file binds, rewrite the comments,
    spread the lines and the spaces."""
    bound = set(sim._bound_names(__import__("ast").parse(source))) - sim._KEEP
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME and tok.string in bound:
            tok = tok._replace(string=tok.string + "_mine")
        elif tok.type == tokenize.COMMENT:
            tok = tok._replace(string="# my own words")
        out.append(tok)
    text = tokenize.untokenize(out).replace("\n", "\n\n").replace(", ", " ,  ").replace("(", "( ")
    return "# written by me\n" + re.sub(r"\n\n\n+", "\n\n\n", text)


def _pass_files():
    for exercise in COURSE.exercises:
        files = correct_variants(ROOT / CASES / exercise.id)
        yield exercise, [f.read_text(encoding="utf-8") for f in files]


def test_honest_solutions_of_one_exercise_are_not_flagged():
    flagged, pairs = [], 0
    for exercise, sources in _pass_files():
        prints = [sim.own(s, exercise.starter) for s in sources]
        for a, b in itertools.combinations(prints, 2):
            pairs += 1
            if sim.same_work(a, b) is not None:
                flagged.append(exercise.id)
    assert pairs > 1000
    assert {e for e in flagged} <= EDITS_OF_THE_REFERENCE, flagged
    assert len(flagged) / pairs < 0.005


def test_a_disguised_copy_is_near_identical_unless_too_short_to_tell():
    caught = missed = 0
    for exercise, sources in _pass_files():
        for source in sources:
            copy = disguise(source)
            compile(copy, "copy", "exec")  # still a program
            a, b = sim.own(source, exercise.starter), sim.own(copy, exercise.starter)
            if min(len(a), len(b)) < sim.MIN_OWN:
                missed += 1
                continue
            assert sim.same_work(a, b) == 1.0, (exercise.id, source[:200])
            caught += 1
    assert caught >= 190 and missed < caught / 5, (caught, missed)


def test_a_short_exercise_everyone_writes_alike_is_never_near_identical():
    exercise = COURSE.exercise("counter-jit")
    one = "def update_counter(count, increment):\n    return count + 1, increment\n"
    two = "def update_counter(c, inc):\n    # one step\n    return c + 1, inc\n"
    found = sim.matches([sim.Hand("a", one), sim.Hand("b", two)], exercise.starter)
    assert found == []
    # byte for byte is said whatever the length: the table calls it short
    assert sim.matches([sim.Hand("a", one), sim.Hand("b", one)], exercise.starter) == [sim.Match("a", "b", True, 1.0)]


def test_what_the_starter_holds_is_nobodys_own_work():
    exercise = COURSE.exercise("welford")
    assert sim.own(exercise.starter, exercise.starter) == frozenset()


@pytest.mark.parametrize("broken", ["def f(:\n  return 1\n", "x = '''\n", "\x00", "", "(" * 500])
def test_a_file_that_does_not_parse_still_has_fingerprints_or_none(broken):
    assert isinstance(sim.fingerprints(broken), frozenset)


def test_groups_join_what_matches_and_keep_the_order():
    found = [sim.Match("c", "a", True, 1.0), sim.Match("d", "e", False, 0.9)]
    assert sim.groups(["a", "b", "c", "d", "e"], found) == [["a", "c"], ["d", "e"]]
