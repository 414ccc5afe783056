"""A forged screen is never possible: `check` run the way a learner runs it, on a real terminal (a
pty), with a program that finds that terminal among its ancestors' open files and draws a green
"PASS", a window title and a clipboard write (OSC 52) on it, and prints the same sequences. Nothing of
it reaches the terminal: the fence refuses the writes, and output the tutor shows has its control
characters made visible. The verdict on the screen is the real one."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FAULT = ROOT / "tests" / "faults" / "forge_terminal.py"


def _screen_of(cmd: list[str], env: dict, timeout: float = 180.0) -> tuple[bytes, int]:
    """Everything written to the terminal the command runs on, and its exit status."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT, start_new_session=True)
    os.close(slave)
    screen, deadline = b"", time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the other side closed: the command ended
                    break
                if not chunk:
                    break
                screen += chunk
            elif proc.poll() is not None:
                break
        return screen, proc.wait(timeout=max(deadline - time.monotonic(), 1))
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


def test_a_program_cannot_draw_on_the_terminal_of_check(tmp_path, cli_env):
    env = cli_env(tmp_path / "home") | {"TERM": "xterm-256color", "JAXSTATE_TUTOR_LANG": "en"}
    cmd = [sys.executable, "-m", "tutor", "check", "counter-jit", "--file", str(FAULT), "--timeout", "60"]
    screen, status = _screen_of(cmd, env)
    text = screen.decode("utf-8", "replace")
    assert status == 1, text[-3000:]
    assert "terminal /dev/pts/" in text and ": refused" in text, text[-3000:]  # it found one, and was refused
    assert ": written" not in text, text[-3000:]
    for sequence in (b"\x1b]52;", b"\x1b]0;", b"\x1b[2J"):  # clipboard, title, clear screen
        assert sequence not in screen, (sequence, text[-3000:])
    assert "PASS: all 6 checks passed (FORGED)" in text  # shown, as text, among the program's output
