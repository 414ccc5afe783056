"""The doctor report as text for a person, in English or Chinese (the CLI prints it, the probe
writes it when run by hand). Each finding: what, where (file:line), how often, why it costs
you, and which lesson and demo cell teach the fix, with the keys that open it.

No JAX, no Textual: plain strings, so the CLI can print them as they are.
"""

from __future__ import annotations

from tutor.doctor.findings import WHY, Finding, Report
from tutor.i18n import table

WORDS = table(
    {
        "title": {"en": "doctor: {script}", "zh": "doctor：{script}"},
        "none": {
            "en": "No findings: nothing the chapter warns about was seen.",
            "zh": "没有发现问题：本章提醒的那些问题一个都没有出现。",
        },
        "one": {"en": "1 finding:", "zh": "发现 1 个问题："},
        "some": {"en": "{n} findings:", "zh": "发现 {n} 个问题："},
        "times": {"en": "{n}×", "zh": "{n} 次"},
        "why": {"en": "Why it costs you: ", "zh": "代价："},
        "fix": {"en": "Fix shown in lesson {lesson}{title}{cell}.", "zh": "修法见第 {lesson} 课{title}{cell}。"},
        "cell": {"en": ", demo cell {cell}", "zh": "，演示单元 {cell}"},
        "open": {
            "en": "Open it: run `jaxstate-tutor`, press Ctrl+P and type {lesson}{cell_hint}.",
            "zh": "打开它：运行 `jaxstate-tutor`，按 Ctrl+P，输入 {lesson}{cell_hint}。",
        },
        "cell_hint": {"en": "; the cell is in that lesson", "zh": "；演示单元就在这一课里"},
        "traces": {"en": "Traces per jitted function: ", "zh": "各 jit 函数的追踪次数："},
        "ended_ok": {"en": "The script ended normally ({seconds:.1f} s).", "zh": "脚本正常结束（{seconds:.1f} 秒）。"},
        "ended_exit": {
            "en": "The script exited with code {code} ({seconds:.1f} s).",
            "zh": "脚本以退出码 {code} 结束（{seconds:.1f} 秒）。",
        },
        "ended_stopped": {
            "en": "The script was stopped after {seconds:.1f} s (Ctrl+C): this is what was seen until then.",
            "zh": "脚本在 {seconds:.1f} 秒后被停止（Ctrl+C）：以下是此前看到的情况。",
        },
        "ended_timeout": {
            "en": "The script was stopped at the time limit ({seconds:.1f} s): this is what was seen until "
            "then. A longer run: --timeout SECONDS.",
            "zh": "脚本运行到时间上限（{seconds:.1f} 秒）被停止：以下是此前看到的情况。需要更长时间：--timeout 秒数。",
        },
        "ended_error": {
            "en": "The script failed (exit code {code}, {seconds:.1f} s); its error is above.",
            "zh": "脚本运行失败（退出码 {code}，{seconds:.1f} 秒）；错误信息见上方。",
        },
    }
)


word = WORDS.say


def how_many(report: Report, lang: str) -> str:
    """ "No findings: ...", "1 finding:" or "3 findings:"."""
    n = len(report.findings)
    return word("none" if n == 0 else "one" if n == 1 else "some", lang, n=n)


def ending(report: Report, lang: str, stopped: bool = False) -> str:
    """One sentence on how the script ended."""
    seconds = report.duration_s
    if report.status == "timeout":
        return word("ended_timeout", lang, seconds=seconds)
    if stopped or report.exit_code == 130:
        return word("ended_stopped", lang, seconds=seconds)
    if report.status == "error":
        return word("ended_error", lang, code=report.exit_code, seconds=seconds)
    if report.exit_code not in (0, None):
        return word("ended_exit", lang, code=report.exit_code, seconds=seconds)
    return word("ended_ok", lang, seconds=seconds)


def what_and_why(f: Finding, lang: str) -> tuple[str, str | None]:
    """The finding's first sentence and why it costs you, apart. A finding read back from the
    wire or JSON carries only its whole message: split off the known "why" text at its end."""
    if f.text is None:
        why = f.why()
        return f.what().get(lang), why.get(lang) if why else None
    message = f.message(lang)
    for why in WHY.values():
        tail = why.get(lang)
        if message.endswith(tail) and len(message) > len(tail):
            return message[: -len(tail)].rstrip(), tail
    return message, None


def finding_lines(f: Finding, lang: str, titles: dict[str, str] | None = None) -> list[str]:
    """One finding as lines: a head (where, kind, function, how often), what, why, the fix."""
    head = f"{f.file}:{f.line}  [{f.kind}]" + (f"  {f.function}" if f.function else "")
    head += "  " + word("times", lang, n=f.count)
    lines = [head]
    what, why = what_and_why(f, lang)
    lines.append("  " + what)
    if why:
        lines.append("  " + word("why", lang) + why)
    t = f.teaching
    if t.lesson:
        title = (titles or {}).get(t.lesson)
        title = (f" “{title}”" if lang != "zh" else f"《{title}》") if title else ""
        cell = word("cell", lang, cell=t.cell) if t.cell else ""
        lines.append("  " + word("fix", lang, lesson=t.lesson, title=title, cell=cell))
        lines.append("  " + word("open", lang, lesson=t.lesson, cell_hint=word("cell_hint", lang) if t.cell else ""))
    return lines


def render_text(report: Report, lang: str, titles: dict[str, str] | None = None, stopped: bool = False) -> str:
    """The whole report: title, how the script ended, each finding, traces per function.
    `titles` maps lesson ids to their titles in `lang` (when the course is at hand)."""
    lines = [word("title", lang, script=report.script), ending(report, lang, stopped)]
    lines.append(how_many(report, lang))
    if report.findings:
        for i, f in enumerate(report.findings, 1):
            block = finding_lines(f, lang, titles)
            lines.append("")
            lines.append(f"{i}. {block[0]}")
            lines.extend(" " + line for line in block[1:])
    if report.traces:
        counts = ", ".join(f"{name} ×{n}" for name, n in sorted(report.traces.items()))
        lines.append("")
        lines.append(word("traces", lang) + counts)
    return "\n".join(lines)
