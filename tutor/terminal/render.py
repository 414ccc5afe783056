"""Human-readable terminal output of runs and lists, with Rich (the CLI's face of the events)."""

from __future__ import annotations

import json
import sys

from rich.console import Console
from rich.markup import escape

from tutor.controls import json_text, show_controls
from tutor.i18n import pick, table
from tutor.protocol import CheckResult, MetricPoints
from tutor.sandbox.events import Output, Verdict
from tutor.sandbox.noise import without_noise
from tutor.terminal.marks import marks, unicode_ok

STYLE = {"pass": "green", "fail": "red", "error": "yellow", "skipped": "dim", "timeout": "magenta"}

WORDS = table(
    {
        "pass": {"en": "PASS", "zh": "通过"},
        "fail": {"en": "FAIL", "zh": "未通过"},
        "error": {"en": "ERROR", "zh": "出错"},
        "timeout": {"en": "TIMEOUT", "zh": "超时"},
        "after_word": {"en": ": ", "zh": "："},  # between the verdict's word and its message
        "stdout": {"en": "your program printed", "zh": "你的程序输出"},
        "stderr": {"en": "stderr", "zh": "标准错误"},
        "truncated": {"en": "(output truncated)", "zh": "（输出已截断）"},
    }
)


def verdict_head(status: str, lang: str) -> str:
    """ "FAIL: " / "未通过：": what comes before a verdict's message, in the CLI and the TUI alike."""
    return pick(WORDS[status], lang) + pick(WORDS["after_word"], lang)


class RunPrinter:
    """Prints a run's events as they arrive: one line per check, then the verdict."""

    def __init__(self, console: Console, lang: str, show_output: bool = True):
        self.console = console
        self.lang = lang
        self.show_output = show_output
        self.marks = marks(console.file)
        self.last_metric: dict[str, tuple[int, float]] = {}
        self.unicode = not self.marks.ascii

    def shown(self, text: str) -> str:
        """Text that came from the learner's run, safe for Rich and the terminal: markup and
        control sequences are both shown as written, never obeyed."""
        return escape(show_controls(text, self.unicode))

    def event(self, event: object) -> None:
        if isinstance(event, CheckResult):
            return  # printed with names in the verdict, in declared order
        if isinstance(event, MetricPoints):
            for series, step, value in event.points:
                self.last_metric[series] = (step, value)
            shown = "  ".join(f"{s} step {st}: {v:.4g}" for s, (st, v) in self.last_metric.items())
            self.console.print(f"[dim]  {self.shown(shown)}[/dim]", highlight=False, markup=True)
        elif isinstance(event, Verdict):
            self.verdict(event)
        elif isinstance(event, Output):
            pass  # shown once, in full, with the verdict

    def verdict(self, v: Verdict) -> None:
        c, lang = self.console, self.lang
        for check in v.checks:
            mark = self.marks[check.status]
            name = pick(check.name, lang) if check.name else check.id
            c.print(
                f"[{STYLE.get(check.status, '')}]{mark}[/] {self.shown(name)} [dim]({self.shown(check.id)})[/dim]",
                highlight=False,
                markup=True,
            )
            message = pick(check.message, lang)
            if check.status != "pass" and message:
                for line in message.splitlines():
                    c.print(f"    {self.shown(line)}", highlight=False, markup=True)
        if self.show_output and v.stdout.strip():
            c.print(f"[bold]{pick(WORDS['stdout'], lang)}:[/bold]", markup=True)
            c.print(self.shown(v.stdout.rstrip()[-4000:]), highlight=False, markup=True)
        stderr = without_noise(v.stderr)  # the runtimes' start-up chatter stays in --json only
        if self.show_output and v.status != "pass" and stderr.strip() and v.kind != "checks":
            c.print(f"[bold]{pick(WORDS['stderr'], lang)}:[/bold]", markup=True)
            c.print(self.shown(stderr.rstrip()[-2000:]), highlight=False, markup=True)
        if v.output_truncated:
            c.print(f"[dim]{pick(WORDS['truncated'], lang)}[/dim]", markup=True)
        c.print(
            f"[bold {STYLE[v.status]}]{verdict_head(v.status, lang)}[/]{self.shown(pick(v.message, lang))}"
            f" [dim]({v.duration_s:.2f} s)[/dim]",
            highlight=False,
            markup=True,
        )


# The version of every --json document (docs/CONTRACTS.md): a key may be added within a version;
# one removed, renamed or given another meaning raises it.
SCHEMA_VERSION = 1


def print_json(doc: dict) -> None:
    """One --json document on stdout, "schema_version" its first key; no raw control character
    reaches the terminal (see tutor.controls), and a stdout that cannot encode Chinese gets \\u
    escapes instead."""
    doc = {"schema_version": SCHEMA_VERSION, **doc}
    print(json_text(json.dumps(doc, ensure_ascii=not unicode_ok(sys.stdout))))
