"""The learner's file as the worker sees it: a copy inside the run folder. The worker is never told
the real path (it leads to the home, where progress.json lives); what the learner is shown names
their own file again (`shown_as`)."""

from __future__ import annotations

import dataclasses
import os

from tutor.i18n import Bilingual
from tutor.protocol import CheckResult
from tutor.sandbox.events import Verdict

SRC_DIR = "src"


def place(workdir: str, source: str, filename: str) -> str:
    """Write `source` as <run folder>/src/<the file's own name>; returns that path for the job."""
    folder = os.path.join(workdir, SRC_DIR)
    os.makedirs(folder, exist_ok=True)
    name = os.path.basename(filename) or "learner.py"
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
        f.write(source)
    return path


def what_changed(copy: str, source: str) -> Bilingual | None:
    """A note if the program deleted or rewrote the copy it ran from (the learner's file is untouched)."""
    try:
        with open(copy, encoding="utf-8", errors="surrogatepass") as f:
            same = f.read() == source
        if same:
            return None
        en, zh = "rewrote", "改写了"
    except FileNotFoundError:
        if not os.path.isdir(os.path.dirname(copy)):
            return None  # the whole run folder went (a worker whose reaper was killed removes it), not the file
        en, zh = "deleted", "删除了"
    except (OSError, UnicodeError):
        en, zh = "changed", "修改了"
    return Bilingual(
        en=f"Note: your program {en} its own file while it ran; it ran from a copy, so your file is unchanged. "
        "Remove the code that writes or deletes `__file__`.",
        zh=f"注意：你的程序在运行时{zh}它自己的文件；它运行的是一份副本，所以你的文件没有改变。"
        "请删掉写入或删除 `__file__` 的代码。",
    )


def _swap(text: str, copy: str, real: str) -> str:
    return text.replace(copy, real) if copy in text else text


def _bilingual(b: Bilingual, copy: str, real: str) -> Bilingual:
    return Bilingual(zh=_swap(b.zh, copy, real), en=_swap(b.en, copy, real))


def shown_check(result: CheckResult, copy: str, real: str) -> CheckResult:
    return dataclasses.replace(result, message=_bilingual(result.message, copy, real))


def shown_verdict(v: Verdict, copy: str, real: str, note: Bilingual | None = None) -> Verdict:
    """The verdict naming the learner's own file wherever it named the copy, with `note` after its message."""
    message = _bilingual(v.message, copy, real)
    if note is not None:
        message = Bilingual(zh=message.zh + "\n" + note.zh, en=message.en + "\n" + note.en)
    return dataclasses.replace(
        v,
        message=message,
        checks=tuple(shown_check(c, copy, real) for c in v.checks),
        stdout=_swap(v.stdout, copy, real),
        stderr=_swap(v.stderr, copy, real),
    )
