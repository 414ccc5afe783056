"""The lesson reader: Markdown text and runnable cells of one section, with next / previous.

Nothing answers a prediction before it is given: the lesson shows its blocks in order up to the
first cell whose question is open (not answered now or in an earlier session, not skipped), the
gate, and the rest only once that question is answered or skipped. Keys, End, Tab and a lesson
opened at a cell (the doctor's Enter) stop at the gate and say why."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, Markdown, Static

from tutor.progress import changes
from tutor.progress.path import Step, exercises_of
from tutor.ui.screens.base import TutorScreen, footer
from tutor.ui.widgets.cell_view import CellView
from tutor.ui.widgets.markup import set_markdown
from tutor.ui.widgets.own_focus_style import ReadingScroll

END_POLL_S = 0.3  # how often "has the learner reached the end?" is asked; a cheap comparison
LAYOUT_WAIT_S = 10.0  # a text that never says it is laid out is shown anyway after this long


class LessonScreen(TutorScreen):
    BINDINGS = [
        Binding("tab", "next_cell", "Cell"),
        Binding("shift+tab", "prev_cell", "Cell", show=False),
        # A focused cell handles Enter / r itself; this one runs the first cell on screen.
        Binding("enter,r", "run_cell", "Run"),
        Binding("c", "go_on", "Continue"),
        Binding("n,right", "next_lesson", "Next", show=False),
        Binding("b,left", "prev_lesson", "Prev", show=False),
        Binding("x", "exercises", "Exercises"),
        Binding("home", "top", show=False),
        # priority: the lesson's own End (which stops at an open question and says so), not the scroll's
        Binding("end", "bottom", show=False, priority=True),
        Binding("escape", "back", "Back"),
    ]
    # Blocks appear in reading order: a Markdown text lays itself out after mounting (seconds
    # later on a busy machine), a cell at once, so a cell below a text waits for it. A block
    # waits hidden by its own `display`, not by a class: taking a class away restyles the
    # block and all it holds (a fifth of the time a lesson took to open).
    DEFAULT_CSS = """
    LessonScreen #lesson-gate { display: none; height: auto; margin: 0 0 2 0; }
    """

    def runs_code(self) -> bool:
        """A lesson with cells makes a worker ready while it shows, so its first run is warm; not in
        a served class (worker_idle_s set), where a learner reading holds no JAX process (issue 51,
        item 8: tens of seats on one box) and the first cell run starts Python, saying so."""
        served = getattr(self.app, "worker_idle_s", None) is not None
        return not served and any(block.cell is not None for block in self.lesson.blocks)

    def __init__(self, lesson, at_cell: str | None = None):
        """`at_cell`: the id of a demo cell to open at (focused, at the top) instead of the lesson's top."""
        super().__init__()
        self.lesson = lesson
        self.at_cell = at_cell
        self.pinned: CellView | None = None  # held at the top until the learner moves
        self.done = False
        self.revealed = False  # blocks shown in order up to the gate; keys wait until then (key_order)
        self.gate: CellView | None = None  # the first cell whose question is open: nothing after it shows
        self._laying_out: dict = {}  # text id -> its Markdown being laid out (awaitable)
        self._unrevealed: set[str] = set()  # ids of the blocks not shown yet
        self._reveal_started = False
        self._skip_asked = False  # c with predictions not made: asked once, the second c goes on

    def compose(self):
        yield Header()
        with ReadingScroll(id="lesson-body"):
            for i, block in enumerate(self.lesson.blocks):
                if block.cell is not None:
                    yield self._waiting(CellView(block.cell, id=f"cell-{i}"))
                else:
                    yield self._waiting(Markdown(id=f"text-{i}", classes="lesson-text"))  # filled by render_texts
            yield self._waiting(Static(id="lesson-end"))
            yield Static(id="lesson-gate")  # under the gate: the blocks between are hidden
        yield footer()

    def _waiting(self, widget):
        """A block hidden until _reveal_in_order shows it."""
        widget.display = False
        self._unrevealed.add(widget.id)
        return widget

    def on_mount(self) -> None:
        self.record(changes.lesson, self.lesson.id, "started")
        body = self.query_one("#lesson-body", VerticalScroll)
        target = self._open_at(self.at_cell)
        if target is None:
            body.focus()
            # A lesson opens at its top, whatever focus or Markdown layout did meanwhile.
            self.call_after_refresh(body.scroll_home, animate=False)
        else:
            self._pin(body, target)
        self.watch(body, "scroll_y", self._follow_view, init=False)
        # Markdown lays itself out after mounting, so "at the end" is only asked from then on.
        self.set_timer(0.5, lambda: self.set_interval(END_POLL_S, self._check_end))

    def _open_at(self, cell_id: str | None) -> CellView | None:
        """The cell to open at: `cell_id`'s, or the first open question above it (with a notice)."""
        cells = list(self.query(CellView))
        target = next((v for v in cells if v.cell.id == cell_id), None)
        if target is None:
            return None
        gate = next((v for v in cells[: cells.index(target)] if v.question_open), None)
        if gate is None:
            return target
        self.notify(self.say("lesson_gate_at", cell=target.cell.id, gate=gate.cell.id), timeout=6, markup=False)
        return gate

    def _pin(self, body: VerticalScroll, target: CellView) -> None:
        """Open at `target`: every time the text above it grows (Markdown lays out after mounting,
        seconds later on a busy machine) scroll it back to the top, until the learner moves. No
        time limit: a 3 s one let go before the layout settled when the machine was loaded."""
        self.pinned = target
        target.focus(scroll_visible=False)

        def hold(_size=None) -> None:
            if self.pinned is not None:
                self.call_after_refresh(self._scroll_to_pinned)

        self.watch(body, "virtual_size", hold)

    def _unpin(self) -> None:
        self.pinned = None

    def on_key(self) -> None:
        self._unpin()  # the learner is moving: their scrolling wins from now on

    def on_mouse_scroll_up(self) -> None:
        self._unpin()

    def on_mouse_scroll_down(self) -> None:
        self._unpin()

    def on_mouse_down(self) -> None:
        self._unpin()

    def render_texts(self) -> None:
        lang = self.lang
        lessons = self.session.loaded.lessons
        index = next((i for i, l in enumerate(lessons) if l.id == self.lesson.id), 0)
        self.set_title(
            f"{self.lesson.id} {self.lesson.title.get(lang)}", self.say("lesson_of", i=index + 1, n=len(lessons))
        )
        for i, block in enumerate(self.lesson.blocks):
            if block.text is not None:
                pending = set_markdown(self.query_one(f"#text-{i}", Markdown), block.text.get(lang))
                if pending is not None:
                    self._laying_out[f"text-{i}"] = pending
        if not self._reveal_started:
            self._reveal_started = True
            self._reveal()
        for cell in self.query(CellView):
            cell.render_texts()
        self._render_gate()
        end = Text(self.say("lesson_end", id=self.lesson.id) + "\n", style="bold")
        progress = self.session.progress
        exercises = self._exercises()
        if exercises:
            end.append(self.say("lesson_exercises") + "\n")
            for ex in exercises:
                end.append(f"  {self.marks[progress.exercise_status(ex.id)]} {ex.title.get(lang)} ({ex.id})\n")
        nxt = self.app.step_after(self.here)
        end.append(
            self.say("next_is", what=self.app.step_title(nxt)) if nxt.kind != "progress" else self.say("path_done"),
            style="bold",
        )
        self.query_one("#lesson-end", Static).update(end)

    def _reveal(self) -> None:
        """Show what may be shown now (see _reveal_in_order); keys wait until it is done."""
        self.revealed = False
        self.run_worker(self._reveal_in_order(), group="reveal", exclusive=True, exit_on_error=False)

    async def _reveal_in_order(self) -> None:
        """Show the blocks top down, each text once it is laid out (the first frame never has a
        cell where the text above it will be, and a key pressed early scrolls the whole lesson),
        up to the gate: the first cell whose question is open. What follows it waits."""
        self.gate = None
        for widget in self._blocks():
            if widget.id in self._unrevealed:
                pending = self._laying_out.get(widget.id)
                if pending is not None and not pending.is_done:  # a wait yields a frame: a layout pass
                    await asyncio.wait([asyncio.ensure_future(pending)], timeout=LAYOUT_WAIT_S)
                self._unrevealed.discard(widget.id)
                widget.display = True
            if isinstance(widget, CellView) and widget.question_open:
                self.gate = widget
                break
        self._render_gate()
        await self._laid_out()  # a key that waited scrolls the lesson as it now is, not as it was
        self.revealed = True
        if self.pinned is not None:  # a cell to open at could not take the focus while hidden
            self.pinned.focus(scroll_visible=False)
            self.call_after_refresh(self._scroll_to_pinned)

    def _scroll_to_pinned(self) -> None:
        if self.pinned is not None:  # still held: the learner has not moved since
            self.pinned.scroll_visible(top=True, animate=False)

    async def _laid_out(self) -> None:
        """Return once what was just shown has been laid out (styles first, then the layout)."""
        for _ in range(2):
            refreshed = asyncio.get_running_loop().create_future()
            self.call_after_refresh(lambda f=refreshed: f.done() or f.set_result(None))
            await refreshed

    def _blocks(self) -> list:
        """The lesson's blocks in reading order, its end included (not the gate's line)."""
        return [w for w in self.query_one("#lesson-body", VerticalScroll).children if w.id != "lesson-gate"]

    def _render_gate(self) -> None:
        line = self.query_one("#lesson-gate", Static)
        line.display = self.gate is not None
        if self.gate is not None:
            more = "..." if self.marks.ascii else "⋯"
            line.update(Text(f"{more} " + self.say("lesson_gate"), style="italic"))

    def on_cell_view_question_closed(self, message: CellView.QuestionClosed) -> None:
        if message.view is self.gate:
            self._reveal()  # the rest, up to the next open question

    @property
    def ready_for_keys(self) -> bool:
        """Keys wait (tutor.ui.key_order) until the lesson is shown up to its gate and the focus in place."""
        return self.revealed and self.is_mounted and (self.focused is not None or not self.focus_chain)

    @property
    def here(self) -> Step:
        return Step("lesson", self.lesson.id)

    def action_next_cell(self) -> None:
        self._move_cell(+1)

    def action_prev_cell(self) -> None:
        self._move_cell(-1)

    def _shown_cells(self) -> list[CellView]:
        """The cells the learner can see: none after the gate, none still waiting for its text."""
        return [c for c in self.query(CellView) if c.id not in self._unrevealed]

    def _move_cell(self, delta: int) -> None:
        """Focus the next (or previous) shown cell, wrapping around; Enter then runs it. With no
        cell focused on screen, the walk starts from the view: the first cell on or below it
        (Tab), the last on or above it (Shift+Tab)."""
        cells = self._shown_cells()
        if not cells:
            return
        if self.focused in cells and self._rows_on_screen(self.focused):
            target = cells[(cells.index(self.focused) + delta) % len(cells)]
        else:
            top, bottom = self._view()
            if delta > 0:
                target = next((c for c in cells if c.virtual_region.bottom > top), cells[0])
            else:
                target = next((c for c in reversed(cells) if c.virtual_region.y < bottom), cells[-1])
        target.focus()
        target.scroll_visible(top=True, animate=False)

    def _view(self) -> tuple[int, int]:
        """The rows of the lesson on screen: [top, bottom)."""
        body = self.query_one("#lesson-body", VerticalScroll)
        top = round(body.scroll_y)
        return top, top + body.scrollable_content_region.height

    def _rows_on_screen(self, cell: CellView) -> int:
        top, bottom = self._view()
        region = cell.virtual_region
        return max(0, min(bottom, region.bottom) - max(top, region.y))

    def cell_on_screen(self) -> CellView | None:
        """The cell Enter runs: the focused one if it is on screen, else the one with the most rows
        on screen (the upper one of two alike); None if no row of any cell is on screen."""
        cells = self._shown_cells()
        if self.focused in cells and self._rows_on_screen(self.focused):
            return self.focused
        shown = [(self._rows_on_screen(c), -i, c) for i, c in enumerate(cells)]
        rows, _, best = max(shown, key=lambda s: s[:2], default=(0, 0, None))
        return best if rows else None

    def _follow_view(self, _value=None) -> None:
        # After the refresh: while Markdown above is still laying out, a cell's region is stale
        # for a frame and a cell on screen would look scrolled away.
        self.call_after_refresh(self._focus_follows_view)

    def _focus_follows_view(self) -> None:
        """Focus follows the view: a focused cell scrolled out of sight gives the focus back to the
        lesson, so that Enter and Tab start from what is on screen, not from where the focus was."""
        body = self.query_one("#lesson-body", VerticalScroll)
        if self.app.animator.is_being_animated(body, "scroll_y"):
            return  # a scroll on its way (focus scrolls a cell into view): judged where it ends
        focused = self.focused
        if isinstance(focused, CellView) and focused is not self.pinned and not self._rows_on_screen(focused):
            self.set_focus(self.query_one("#lesson-body", VerticalScroll), scroll_visible=False)

    def _exercises(self):
        return exercises_of(self.session.course, self.lesson.id)

    def action_run_cell(self) -> None:
        """Run the cell on screen (see cell_on_screen)."""
        if not self._shown_cells():
            return
        target = self.cell_on_screen()
        if target is None:
            self.notify(self.say("no_cell_on_screen"), timeout=3)
            return
        target.focus(scroll_visible=False)
        target.action_run_cell()

    def action_top(self) -> None:
        self.query_one("#lesson-body", VerticalScroll).scroll_home(animate=False)

    def action_bottom(self) -> None:
        """End: the end of the lesson, or of what shows of it: the gate, whose line under the open
        question says why (a notice would cover the question's options at 80x24)."""
        self.query_one("#lesson-body", VerticalScroll).scroll_end(animate=False)

    def action_go_on(self) -> None:
        """`c`: this section counts as read; open the next step of the path. With questions of its
        cells never answered, the first `c` says how many and what skipping them means."""
        open_ones = self.session.progress.predictions_not_made(self.lesson.id)
        if open_ones and not self._skip_asked:
            self._skip_asked = True
            self.notify(self.say("skip_predictions", n=len(open_ones), mark=self.marks["started"]), timeout=10)
            return
        self.mark_done()
        self.app.go_on_from(self.here)

    def _check_end(self) -> None:
        body = self.query_one("#lesson-body", VerticalScroll)
        if self.revealed and self.gate is None and not self.done and body.scroll_y >= body.max_scroll_y - 1:
            self.mark_done()  # not while blocks are still hidden: the end would look reached

    def mark_done(self) -> None:
        """Read to the end (or moved on): done, unless a question of its cells was never answered,
        which leaves it started (◐) until one is."""
        if self.done:
            return
        progress = self.session.progress
        if progress.predictions_not_made(self.lesson.id):
            if progress.lesson_status(self.lesson.id) == "new":  # asked again every END_POLL_S: write once
                self.record(changes.lesson, self.lesson.id, "started")
            return
        self.done = True
        self.record(changes.lesson, self.lesson.id, "done")

    def _neighbour(self, delta: int):
        lessons = self.session.loaded.lessons
        index = next((i for i, l in enumerate(lessons) if l.id == self.lesson.id), None)
        if index is None or not 0 <= index + delta < len(lessons):
            return None
        return lessons[index + delta]

    def action_next_lesson(self) -> None:
        nxt = self._neighbour(+1)
        if nxt is None:
            self.notify(self.say("last_lesson"))
            return
        self.mark_done()  # moving on from a section counts as having read it
        self.app.open_step(Step("lesson", nxt.id))

    def action_prev_lesson(self) -> None:
        prev = self._neighbour(-1)
        if prev is None:
            self.notify(self.say("first_lesson"))
            return
        self.app.open_step(Step("lesson", prev.id))

    def action_exercises(self) -> None:
        """x: this section's practice: its checkpoint or first unpassed exercise."""
        practice = self.session.progress.practice(self.lesson.id)
        if practice is None:
            self.notify(self.say("no_exercises_here"))
            return
        self.app.open_step(practice)

    def action_back(self) -> None:
        self.app.pop_screen()
