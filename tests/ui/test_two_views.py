"""Two TUIs on one home (two terminals of one learner, or a tab left open): two views of one file.
Neither side's text is ever silently discarded, and attempts count exactly the checks the learner
ran. Both apps run for real in one event loop (Pilot), each with its own session, on one home."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tutor.course import read_course
from tutor.ui.app import make_app
from tutor.ui.mark_styles import Marks

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)
SIZE = (80, 24)
A_TEXT = "# A's work: saved and checked in the first window\n"
B_TEXT = "# B's typing: unsaved in the second window\n"


def new_app(home: Path, sandbox):
    app = make_app(home, "en", course=(COURSE, []), sandbox=sandbox)
    app.marks = Marks(ascii_only=False)
    return app


def _notes(app) -> str:
    return "\n".join(str(n.message) for n in app._notifications)


def _kept_at(note: str, after: str) -> Path:
    return Path(note.split(after, 1)[1].split()[0])


def test_a_save_over_another_windows_text_keeps_it_and_each_check_counts_once(home, fake_sandbox, tui):
    exercise = COURSE.exercise("counter-jit")
    fake_sandbox.script("counter-jit", fake_sandbox.verdict("fail", checks=fake_sandbox.checks(exercise)))

    async def body():
        a, b = new_app(home, fake_sandbox), new_app(home, fake_sandbox)
        async with a.run_test(size=SIZE) as pa:
            sa = await tui.open_exercise(pa, "counter-jit")  # before B starts: Textual's current app is A's here
            async with b.run_test(size=SIZE) as pb:
                sb = await tui.open_exercise(pb, "counter-jit")
                sb.editor.load_text(B_TEXT)  # typed in B, not saved

                sa.editor.load_text(A_TEXT)
                await tui.check(pa, sa)  # F5 in A: saved, checked (attempt 1)
                assert sa.path.read_text() == A_TEXT
                status_b = sb.query_one("#ex-status")
                await tui.until(
                    pb, lambda: "changed on disk" in tui.plain(status_b), 60, "B's note that the file changed"
                )
                assert sb.editor.text == B_TEXT  # B's typing is kept

                await tui.check(pb, sb)  # F5 in B, after the warning: B's text saved over A's (attempt 2)
                assert sb.path.read_text() == B_TEXT
                await tui.until(pb, lambda: "that version is kept at" in _notes(b), 60, "B told where A's text went")
                kept_by_b = _kept_at(_notes(b), "that version is kept at ")
                assert kept_by_b.read_text() == A_TEXT

                # A had nothing unsaved: it shows B's text, says where its own went, and does not
                # check again what B is checking.
                await tui.until(pa, lambda: sa.editor.text == B_TEXT, 60, "A reloading B's text")
                await tui.until(
                    pa, lambda: "your previous text is kept at" in _notes(a), 60, "A told where its text went"
                )
                assert _kept_at(_notes(a), "your previous text is kept at ") == kept_by_b
                assert not sa.running
                assert "another window" in tui.plain(sa.query_one("#ex-status"))
                assert [src for _, src in fake_sandbox.asked] == [A_TEXT, B_TEXT]
                assert tui.progress(home, b)["exercises"]["counter-jit"]["attempts"] == 2
                await pa.press("f5")  # a check the learner asks for in A still counts (attempt 3)
                await tui.until(pa, lambda: len(fake_sandbox.asked) == 3, 60, "A's own check")
                await tui.until(pa, lambda: sa.verdict is not None and not sa.running, 60, "A's verdict")
                assert tui.progress(home, a)["exercises"]["counter-jit"]["attempts"] == 3

    asyncio.run(body())


def test_both_windows_typing_each_keeps_the_other_sides_text(home, fake_sandbox, tui):
    """Unsaved typing on both sides: whichever saves second keeps the first one's version."""

    async def body():
        a, b = new_app(home, fake_sandbox), new_app(home, fake_sandbox)
        async with a.run_test(size=SIZE) as pa:
            sa = await tui.open_exercise(pa, "counter-jit")  # before B starts: Textual's current app is A's here
            async with b.run_test(size=SIZE) as pb:
                sb = await tui.open_exercise(pb, "counter-jit")
                sa.editor.load_text(A_TEXT)
                sb.editor.load_text(B_TEXT)
                await pa.press("ctrl+s")
                await tui.until(pa, lambda: sa.path.read_text() == A_TEXT, 60, "A's save")
                await pb.press("ctrl+s")  # before or after B's poll noticed: either way A's text is kept
                await tui.until(pb, lambda: "that version is kept at" in _notes(b), 60, "B told where A's text went")
                assert sb.path.read_text() == B_TEXT
                assert _kept_at(_notes(b), "that version is kept at ").read_text() == A_TEXT
                # A had nothing unsaved after its save: its editor holds A's text until its poll sees
                # B's save, then B's, with a note saying where its own went. Either way A's text is kept.
                if sa.editor.text != A_TEXT:
                    assert sa.editor.text == B_TEXT
                    await tui.until(pa, lambda: "your previous text is kept at" in _notes(a), 60, "A's note")
                    assert _kept_at(_notes(a), "your previous text is kept at ").read_text() == A_TEXT

    asyncio.run(body())
