"""The trace panel beside the editor: what the checks saw of each of the learner's functions as it
traced in the last run (how often and why, its arguments' types, the control flow in its program),
live as the facts arrive, before the checks give their verdict."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from tutor.i18n import Bilingual, pick
from tutor.protocol import TraceFacts
from tutor.ui.texts import say


@dataclass
class Seen:
    """One function, over the facts of a run."""

    traces: int = 0
    arguments: tuple[tuple[str, str], ...] = ()
    reasons: list[Bilingual] = field(default_factory=list)
    control_flow: set[str] = field(default_factory=set)
    looked_at: bool = False  # its program was looked at (so an empty control_flow means none)


class TracePanel(VerticalScroll):
    """Facts per function in the order they first came; `clear()` at each run, `add()` per fact."""

    DEFAULT_CSS = """
    TracePanel { width: 40%; min-width: 28; border: round $panel; padding: 0 1; }
    TracePanel > Static { width: 1fr; }
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.functions: dict[str, Seen] = {}
        self.ran = False  # a run started since the screen opened

    def compose(self):
        yield Static(id="trace-text")

    def clear(self) -> None:
        self.functions.clear()
        self.ran = True
        self.render_facts()

    def add(self, facts: TraceFacts) -> None:
        seen = self.functions.setdefault(facts.function, Seen())
        if facts.traces:
            seen.traces = max(seen.traces, facts.traces)
            seen.arguments = facts.arguments
            if facts.reason is not None and facts.reason not in seen.reasons:
                seen.reasons.append(facts.reason)
        seen.control_flow.update(facts.control_flow)
        seen.looked_at = True
        self.render_facts()

    def render_facts(self) -> None:
        app = self.app
        lang, ascii_only = getattr(app, "lang", "en"), getattr(getattr(app, "marks", None), "ascii", False)
        self.border_title = say("trace_title", lang)
        parts: list[RenderableType] = []
        if not self.functions:
            parts.append(Text(say("trace_none_yet" if self.ran else "trace_none", lang), style="dim"))
        for name, seen in self.functions.items():
            if parts:
                parts.append(Text(""))
            head = Text(name, style="bold")
            if seen.traces:
                key = "trace_count_one" if seen.traces == 1 else "trace_count"
                head.append(" " + say(key, lang, n=seen.traces), style="bold")
            parts.append(head)
            # Each fact's wrapped lines hang under its words, not under the function's name (at
            # 80 columns the panel is 28 wide, and a reason takes three or four lines). "fold", not
            # the column's default "ellipsis": Rich strips a wrapped line's trailing space by
            # characters, not cells, so a Chinese line that fills the width kept its space, and the
            # ellipsis then cut the word before it (the argument's name: "coun…").
            facts = Table.grid(expand=True)
            facts.add_column(no_wrap=True)
            facts.add_column(ratio=1, overflow="fold")
            # Why it traced again comes first: a state's arguments take two lines each at this
            # width, and after a dict's six of them the reason was below the panel's fold.
            for reason in seen.reasons:
                facts.add_row(Text("  > " if ascii_only else "  ↻ ", style="bold"), pick(reason, lang))
            for argument, kind in seen.arguments:
                facts.add_row("  ", Text.assemble((f"{argument}: ", "dim"), kind))
            found = [n for n in ("scan", "while", "cond") if n in seen.control_flow]
            if found:
                facts.add_row("  ", say("trace_flow", lang, found=", ".join(found)))
            elif not seen.traces or seen.looked_at:
                facts.add_row("  ", Text(say("trace_no_flow", lang), style="dim"))
            if facts.row_count:
                parts.append(facts)
        text = Group(*parts)
        self.query_one("#trace-text", Static).update(text)
