"""Running the learner's own editor ($VISUAL / $EDITOR) on a file, as git does: the value is a
shell snippet (`code -w`, `vim -u NONE`, `~/bin/ed`), the file its last argument. Whatever the
editor does, the caller gets a result, never an exception: a caller that suspended its terminal
for the editor must get to put the terminal back. No Textual, no JAX.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from tutor.i18n import Bilingual


def editor_command() -> str:
    return os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"


def run_editor(cmd: str, path: Path) -> Bilingual | None:
    """Run `cmd` on `path` in the current terminal and wait for it; None if it exited 0, else
    what went wrong, in both languages."""
    try:
        # "$@" after the snippet: the path reaches the editor as one argument, whatever it holds.
        code = subprocess.call(["/bin/sh", "-c", f'{cmd} "$@"', cmd, str(path)])
    except (OSError, ValueError) as exc:  # no /bin/sh, no processes left, a NUL in the value
        why = getattr(exc, "strerror", None) or str(exc)
        return Bilingual(en=f"it could not be started ({why})", zh=f"无法启动（{why}）")
    except KeyboardInterrupt:
        return Bilingual(en="it was interrupted", zh="它被中断了")
    if code == 0:
        return None
    if code == 127:  # the shell's "command not found"
        return Bilingual(en="no such command", zh="找不到这个命令")
    if code == 126:
        return Bilingual(en="it is not an executable program", zh="它不是可执行的程序")
    if code < 0 or code > 128:  # the shell was, or says its editor was (128 + N), ended by signal N
        num = -code if code < 0 else code - 128
        name = signal.Signals(num).name if num in signal.valid_signals() else f"signal {num}"
        return Bilingual(en=f"it was ended by {name}", zh=f"它被 {name} 结束")
    return Bilingual(en=f"it exited with status {code}", zh=f"它以状态 {code} 退出")
