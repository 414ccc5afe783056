"""The trace panel beside the editor: what the checks saw of each of the learner's functions as it
traced in the last run (how often and why, its arguments' types, the control flow in its program),
live as the facts arrive, before the checks give their verdict."""

from __future__ import annotations

from dataclasses import dataclass, field

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
        text = Text()
        if not self.functions:
            text.append(say("trace_none_yet" if self.ran else "trace_none", lang), style="dim")
        for name, seen in self.functions.items():
            if text:
                text.append("\n\n")
            text.append(name, style="bold")
            if seen.traces:
                key = "trace_count_one" if seen.traces == 1 else "trace_count"
                text.append(" " + say(key, lang, n=seen.traces), style="bold")
            for argument, kind in seen.arguments:
                text.append(f"\n  {argument}: ", style="dim")
                text.append(kind)
            for reason in seen.reasons:
                text.append("\n" + ("  > " if ascii_only else "  ↻ "), style="bold")
                text.append(pick(reason, lang))
            found = [n for n in ("scan", "while", "cond") if n in seen.control_flow]
            if found:
                text.append("\n  " + say("trace_flow", lang, found=", ".join(found)))
            elif not seen.traces or seen.looked_at:
                text.append("\n  " + say("trace_no_flow", lang), style="dim")
        self.query_one("#trace-text", Static).update(text)
