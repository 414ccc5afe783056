"""The doctor report as text for a person, in English or Chinese (what the CLI prints). Each
finding: where (file:line), what, how often, why it costs you, and which lesson and demo cell
teach the fix, with the keys that open it. The words are tutor.doctor.wording's; this is layout.

No JAX, no Textual: plain strings, so the CLI can print them as they are.
"""

from __future__ import annotations

from tutor.doctor import wording
from tutor.doctor.findings import Report
from tutor.doctor.teaching import Taught, teaching
from tutor.doctor.wording import WORDS
from tutor.protocol import Finding

word = WORDS.say


def finding_lines(
    f: Finding, lang: str, titles: dict[str, str] | None = None, taught: Taught | None = None
) -> list[str]:
    """One finding as lines: a head (where, kind, function, how often), what, why, the fix (the
    lesson that teaches it, where `taught`, the course's teachings, names one)."""
    head = f"{f.file}:{f.line}  [{f.kind}]" + (f"  {f.function}" if f.function else "")
    lines = [head + "  " + wording.times(f.count, lang), "  " + wording.what(f, lang)]
    lines.append("  " + word("why", lang) + wording.why(f, lang))
    t = teaching(f, taught)
    if t.lesson:
        title = (titles or {}).get(t.lesson)
        title = (f" “{title}”" if lang != "zh" else f"《{title}》") if title else ""
        cell = word("cell", lang, cell=t.cell) if t.cell else ""
        lines.append("  " + word("fix", lang, lesson=t.lesson, title=title, cell=cell))
        lines.append("  " + word("open", lang, lesson=t.lesson, cell_hint=word("cell_hint", lang) if t.cell else ""))
    return lines


def render_text(
    report: Report,
    lang: str,
    titles: dict[str, str] | None = None,
    stopped: bool = False,
    taught: Taught | None = None,
) -> str:
    """The whole report: title, how the script ended, each finding, traces per function.
    `titles` maps lesson ids to their titles in `lang` (when the course is at hand)."""
    lines = [word("title", lang, script=report.script), wording.ending(report, lang, stopped)]
    lines.append(wording.how_many(report, lang))
    lines += wording.blind_spots(report, lang)
    for i, f in enumerate(report.findings, 1):
        block = finding_lines(f, lang, titles, taught)
        lines.append("")
        lines.append(f"{i}. {block[0]}")
        lines.extend(" " + line for line in block[1:])
    if report.notes:
        lines += ["", word("notes", lang)]
        lines += [f"- {f.file}:{f.line}  {wording.what(f, lang)}" for f in report.notes]
    if report.traces:  # the costliest first: where compile time went
        counts = ("; " if lang != "zh" else "；").join(
            wording.trace_count(t, lang)
            for t in sorted(report.traces, key=lambda t: (-t.seconds, t.file, t.function, t.line))
        )
        lines.append("")
        lines.append(word("traces", lang) + counts)
    return "\n".join(lines)
