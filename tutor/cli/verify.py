"""How `verify` shows its runs as they end (tutor.course.verify makes them): a line per run with
the count so far and the time since the start, under Rich's progress bar where the stream is a
terminal, plain lines otherwise. With --json these lines go to stderr (stdout holds the document);
--json-lines writes each run's row to stdout as a JSON line instead, the final document last."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape

from tutor.cli.texts import say
from tutor.course.verify import Row
from tutor.terminal.marks import marks
from tutor.terminal.render import RunPrinter, print_json

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


class RowLines:
    """Each row as a line, `[done/total  seconds]` first, on `con`; a live bar below them while
    `con` is a terminal."""

    def __init__(self, con: Console, lang: str, total: int):
        self.con, self.lang, self.total = con, lang, total
        self.done = 0
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    @contextlib.contextmanager
    def showing(self) -> Iterator[RowLines]:
        if not self.con.is_terminal:
            yield self
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TimeElapsedColumn

        with Progress(
            SpinnerColumn(), MofNCompleteColumn(), BarColumn(), TimeElapsedColumn(), console=self.con, transient=True
        ) as bar:
            self._bar, self._task = bar, bar.add_task("verify", total=self.total)
            try:
                yield self
            finally:
                self._bar = None

    def tick(self) -> None:
        """One more run ended."""
        self.done += 1
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=self.done)

    def row(self, r: Row, details: bool = True) -> None:
        """One more run ended: its line (`details`: and why it did not do as it should)."""
        self.tick()
        m = marks()
        mark = m["pass"] if r.ok else m["fail"]
        should = "pass" if r.task.should_pass else "fail"  # the verb, whole: not sliced from "passes"
        width = len(str(self.total))
        self.con.print(
            escape(f"[{self.done:>{width}}/{self.total} {r.elapsed_s:6.1f} s] ")
            + escape(f"{mark} {r.exercise:<20} {r.file:<9} {r.verdict.status:<8} ")
            + say(f"verify_{'ok' if r.ok else 'bad'}_{should}", self.lang),
            markup=True,
        )
        if details and r.problem is not None:
            self.con.print(r.problem, markup=False)
        elif details and not r.ok:
            RunPrinter(self.con, self.lang).verdict(r.verdict)


def json_line(r: Row, done: int, total: int) -> None:
    """One run's row as a JSON line on stdout, written at once (a pipe would hold it back)."""
    print_json({"done": done, "total": total, "result": r.document()})
    sys.stdout.flush()
