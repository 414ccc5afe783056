"""Tomorrow's review in the real `python -m tutor` at 80x24 in tmux (issue 56's walk): a drill of
lesson 6.1 answered wrong today is not on today's outline; on tomorrow's (main() handed a clock a
day on: nothing sleeps) the outline says "1 to review today", v shows another drill of the same
belief, and the answer is judged by a real worker run, whose failing check speaks. en and zh;
the zh run with NO_COLOR."""

from __future__ import annotations

import re
import sys
import time
from datetime import date

import pytest

from tutor.course import read_course
from tutor.progress import ProgressStore, changes
from tutor.settings import course_of

COURSE, _ = read_course(course_of())
WRONG = COURSE.drills_of("6.1")[0]
RUN_S = 240  # the drill's run may wait for a worker's JAX import on a busy machine
SAY = {
    "en": ("1 to review today", "Review · spot the bug", "Line ", "What the check", "Review: 1 of 1 right"),
    "zh": ("今天有 1 道题要复习", "复习 · 找错", "行：对了", "的说法", "复习：答对 1/1 题"),
}
AT = "import sys; from datetime import date, timedelta; from tutor.cli.main import main; "


def tutor_on(day_offset: int, lang: str) -> list[str]:
    """`python -m tutor` as main() runs it, with the learner's day `day_offset` days from today."""
    code = AT + f"sys.exit(main(['--lang', '{lang}'], clock=lambda: date.today() + timedelta(days={day_offset})))"
    return [sys.executable, "-c", f'"{code}"']


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_drill_answered_wrong_today_is_reviewed_tomorrow_in_tmux(tmux, home, lang):
    due, title, line_right, check_said, done = SAY[lang]
    ProgressStore(home).apply(changes.drill, WRONG.id, WRONG.line % 3 + 1, WRONG.belief, False, date.today())
    if lang == "zh":
        tmux.env["NO_COLOR"] = "1"
    tmux.start(tutor_on(0, lang))
    shown = tmux.wait_for("6.1", timeout=60)
    assert due not in shown  # today: not yet
    tmux.kill()

    tmux.start(tutor_on(1, lang))
    tmux.wait_for(due, timeout=60)
    tmux.keys("v")
    shown = tmux.wait_for(title, timeout=30)
    asked = next(d for d in COURSE.drills if d.id != WRONG.id and d.belief == WRONG.belief)
    first_line = asked.code.splitlines()[0]
    assert first_line.strip() in shown, shown  # another drill of the same belief, not the one seen
    tmux.keys(*str(asked.line), "Enter")
    tmux.wait_for(line_right, timeout=30)
    # the beliefs come in a drawn order: the drill's own is found on screen by its words
    belief = COURSE.misconception(asked.belief).text.get(lang)[:12]
    # at 80x24 the last of four long beliefs may sit below the list's fold: Down brings it up
    pressed, at = 0, None
    while at is None:
        rows = tmux.screen().splitlines()
        at = next((ord(m.group(1)) - 65 for r in rows if (m := re.match(r"^\s+([A-D])\. ", r)) and belief in r), None)
        if at is None:
            assert pressed < 4, rows
            tmux.keys("Down")
            pressed += 1
            time.sleep(0.5)
    tmux.keys(*(["Down"] * (at - pressed)), *(["Up"] * (pressed - at)), "Enter")
    tmux.wait_for(check_said, timeout=RUN_S)
    shown = tmux.wait_for(done, timeout=30)
    assert "Traceback" not in shown
