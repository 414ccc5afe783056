"""The lesson reader: Markdown text and runnable cells of one section, with next / previous."""

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
        Binding("end", "bottom", show=False),
        Binding("escape", "back", "Back"),
    ]
    # Blocks appear in reading order: a Markdown text lays itself out after mounting (seconds
    # later on a busy machine), a cell at once, so a cell below a text waits for it.
    DEFAULT_CSS = """
    LessonScreen .unrevealed { display: none; }
    """

    def runs_code(self) -> bool:
        return any(block.cell is not None for block in self.lesson.blocks)

    def __init__(self, lesson, at_cell: str | None = None):
        """`at_cell`: the id of a demo cell to open at (focused, at the top) instead of the lesson's top."""
        super().__init__()
        self.lesson = lesson
        self.at_cell = at_cell
        self.pinned: CellView | None = None  # held at the top until the learner moves
        self.done = False
        self.revealed = False  # every block shown, in order; keys wait until then (key_order)
        self._revealing = False

    def compose(self):
        yield Header()
        with ReadingScroll(id="lesson-body"):
            for i, block in enumerate(self.lesson.blocks):
                if block.cell is not None:
                    yield CellView(block.cell, id=f"cell-{i}", classes="unrevealed")
                else:
                    yield Markdown(id=f"text-{i}", classes="lesson-text unrevealed")  # filled by render_texts
            yield Static(id="lesson-end", classes="unrevealed")
        yield footer()

    def on_mount(self) -> None:
        self.record(changes.lesson, self.lesson.id, "started")
        body = self.query_one("#lesson-body", VerticalScroll)
        target = next((v for v in self.query(CellView) if v.cell.id == self.at_cell), None)
        if target is None:
            body.focus()
            # A lesson opens at its top, whatever focus or Markdown layout did meanwhile.
            self.call_after_refresh(body.scroll_home, animate=False)
        else:
            self._pin(body, target)
        self.watch(body, "scroll_y", self._follow_view, init=False)
        # Markdown lays itself out after mounting, so "at the end" is only asked from then on.
        self.set_timer(0.5, lambda: self.set_interval(END_POLL_S, self._check_end))

    def _pin(self, body: VerticalScroll, target: CellView) -> None:
        """Open at `target`: every time the text above it grows (Markdown lays out after mounting,
        seconds later on a busy machine) scroll it back to the top, until the learner moves. No
        time limit: a 3 s one let go before the layout settled when the machine was loaded."""
        self.pinned = target
        target.focus(scroll_visible=False)

        def hold(_size=None) -> None:
            if self.pinned is not None:
                self.call_after_refresh(lambda: self.pinned and self.pinned.scroll_visible(top=True, animate=False))

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
        lessons = self.session.course.lessons
        index = next((i for i, l in enumerate(lessons) if l.id == self.lesson.id), 0)
        self.set_title(
            f"{self.lesson.id} {self.lesson.title.get(lang)}", self.say("lesson_of", i=index + 1, n=len(lessons))
        )
        laying_out = {}
        for i, block in enumerate(self.lesson.blocks):
            if block.text is not None:
                laying_out[f"text-{i}"] = set_markdown(self.query_one(f"#text-{i}", Markdown), block.text.get(lang))
        if not self.revealed and not self._revealing:
            self._revealing = True
            self.run_worker(self._reveal_in_order(laying_out), group="reveal", exit_on_error=False)
        for cell in self.query(CellView):
            cell.render_texts()
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

    async def _reveal_in_order(self, laying_out: dict) -> None:
        """Show the blocks top down, each text once it is laid out: the first frame never has a
        cell where the text above it will be, and a key pressed early scrolls the whole lesson."""
        for widget in list(self.query_one("#lesson-body", VerticalScroll).children):
            pending = laying_out.get(widget.id)
            if pending is not None:
                await asyncio.wait([asyncio.ensure_future(pending)], timeout=LAYOUT_WAIT_S)
            widget.remove_class("unrevealed")
        self.revealed = True
        if self.pinned is not None:  # a cell to open at could not take the focus while hidden
            self.pinned.focus(scroll_visible=False)
            self.call_after_refresh(lambda: self.pinned and self.pinned.scroll_visible(top=True, animate=False))

    @property
    def ready_for_keys(self) -> bool:
        """Keys wait (tutor.ui.key_order) until the lesson is whole and the focus in place."""
        return self.revealed and self.is_mounted and (self.focused is not None or not self.focus_chain)

    @property
    def here(self) -> Step:
        return Step("lesson", self.lesson.id)

    def action_next_cell(self) -> None:
        self._move_cell(+1)

    def action_prev_cell(self) -> None:
        self._move_cell(-1)

    def _move_cell(self, delta: int) -> None:
        """Focus the next (or previous) cell, wrapping around; Enter then runs it. With no cell
        focused on screen, the walk starts from the view: the first cell on or below it (Tab),
        the last on or above it (Shift+Tab)."""
        cells = list(self.query(CellView))
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
        cells = list(self.query(CellView))
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
        if not self.query(CellView):
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
        self.query_one("#lesson-body", VerticalScroll).scroll_end(animate=False)

    def action_go_on(self) -> None:
        """`c`: this section counts as read; open the next step of the path."""
        self.mark_done()
        self.app.go_on_from(self.here)

    def _check_end(self) -> None:
        body = self.query_one("#lesson-body", VerticalScroll)
        if self.revealed and not self.done and body.scroll_y >= body.max_scroll_y - 1:
            self.mark_done()  # not while blocks are still hidden: the end would look reached

    def mark_done(self) -> None:
        if not self.done:
            self.done = True
            self.record(changes.lesson, self.lesson.id, "done")

    def _neighbour(self, delta: int):
        lessons = self.session.course.lessons
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
