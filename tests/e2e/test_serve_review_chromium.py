"""Issue 56's review walk in the browser at 80x24, zh under NO_COLOR: a drill of lesson 6.1 answered
wrong yesterday comes back today. `serve` starts each tab's tutor itself, so no clock can be handed
to it as tests/e2e/test_review_tmux.py hands one to main(): the day moves the other way, the wrong
answer is recorded as the drill screen records it (tutor.progress.changes.drill), dated a day before
the machine's today. The outline says "1 to review today", v from the outline shows another drill of
the same belief, and the answer is judged by a real worker run, whose failing check speaks.
Keys are the browser's own key events; the screen is what the page received (tests/plugins/browser.py);
a screenshot of the page is left under the test's tmp_path/shots.
"""

from __future__ import annotations

import re
import time
from datetime import date, timedelta

from tutor.course import read_course
from tutor.progress import ProgressStore, changes
from tutor.settings import course_of

COURSE, _ = read_course(course_of())
WRONG = COURSE.drills_of("6.1")[0]
RUN_S = 600  # the drill's run may wait for a worker's JAX import, at load 20
SAY = {"outline": "继续：", "due": "今天有 1 道题要复习", "title": "复习 · 找错", "line_right": "行：对了"}
SAY |= {"check_said": "的说法", "done": "复习：答对 1/1 题"}


def belief_place(chromium, belief: str) -> tuple[int, int]:
    """(the belief's place in the list, read from its letter; how many times Down was pressed to
    bring it on screen): at 80x24 the last of four long beliefs may sit below the list's fold."""
    pressed = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        rows = chromium.text().splitlines()
        letters = [re.match(r"^\s*\S?\s*([A-D])[.)]? ", r) for r in rows]
        at = next((m.group(1) for m, r in zip(letters, rows) if m and belief in r), None)
        if at is not None:
            return ord(at) - ord("A"), pressed
        if pressed < 4:
            chromium.key("Down")
            pressed += 1
        time.sleep(0.5)
    raise AssertionError(f"the belief {belief!r} never came on screen:\n{chromium.text()}")


def test_a_drill_answered_wrong_yesterday_is_reviewed_today_in_chromium_zh_no_color(chromium, serve, home, tmp_path):
    yesterday = date.today() - timedelta(days=1)
    ProgressStore(home).apply(changes.drill, WRONG.id, WRONG.line % 3 + 1, WRONG.belief, False, yesterday)
    served = serve(lang="zh", no_color=True)
    chromium.open(served.url)
    chromium.wait_for(SAY["outline"], timeout=120)
    chromium.fit(80, 24)
    chromium.wait_for(SAY["due"], timeout=60)  # on the outline, at 80x24

    chromium.key("v")
    shown = chromium.wait_for(SAY["title"], timeout=60)
    asked = next(d for d in COURSE.drills if d.id != WRONG.id and d.belief == WRONG.belief)
    first_line = next(line for line in asked.code.splitlines() if line.strip())
    assert first_line.strip() in shown, shown  # another drill of the same belief, not the one seen
    chromium.type(str(asked.line))
    chromium.key("Enter")
    chromium.wait_for(SAY["line_right"], timeout=60)
    # the beliefs come in a drawn order: the drill's own is found on screen by its words
    belief = COURSE.misconception(asked.belief).text.get("zh")[:12]
    at, pressed = belief_place(chromium, belief)
    for _ in range(at - pressed):
        chromium.key("Down")
    for _ in range(pressed - at):
        chromium.key("Up")
    chromium.key("Enter")
    chromium.wait_for(SAY["check_said"], timeout=RUN_S)
    shown = chromium.wait_for(SAY["done"], timeout=60)
    chromium.screenshot(tmp_path / "shots" / "review-zh.png")
    assert "Traceback" not in shown, shown
    assert served.stop() == 0
