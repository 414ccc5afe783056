"""`get_ipython()` for a notebook run by doctor: what each IPython form (tutor.doctor.notebook turns
them into these calls) does here, said by name on stderr when it is not what IPython would do.

- Statements the later cells may depend on run as in IPython: `%time` / `%timeit` / `%%time` /
  `%%capture` run their code (once), `%env` sets a variable, `%cd` changes folder, `%run` runs a
  script into the notebook's names, `%%writefile` writes its file, `x = !cmd` runs the command and
  hands back its lines (its value is used).
- The shell's own statements do not run: `!pip install ...`, `%pip`, `%%bash` / `%%sh` / `%%script`
  would change the machine or the environment the tutor itself runs in; each is passed over with
  a line naming it. Display-only forms (`%matplotlib`, `%%html`, help `x?`) do nothing.
- Any other magic is refused by name (passed over, said), never run as Python.
"""

from __future__ import annotations

import ast
import os
import runpy
import subprocess
import sys

# Magics with nothing to do outside a live kernel (display, extensions, configuration, help).
QUIET = frozenset(
    {
        "matplotlib",
        "load_ext",
        "reload_ext",
        "autoreload",
        "aimport",
        "config",
        "pinfo",
        "pinfo2",
        "xmode",
        "precision",
        "pprint",
        "colors",
        "alias_magic",
        "who",
        "whos",
        "history",
        "notebook",
        "pdb",
        "tb",
    }
)
DISPLAY_CELLS = frozenset({"html", "HTML", "markdown", "latex", "javascript", "js", "svg"})
SHELL_CELLS = frozenset({"bash", "sh", "script", "system", "perl", "ruby", "python2", "python3", "pypy"})


def _say(text: str) -> None:
    print(f"doctor: {text}", file=sys.stderr, flush=True)


class SList(list):
    """The lines of a command's output, as IPython's `x = !cmd` gives them (.s, .n, .l)."""

    @property
    def s(self) -> str:
        return " ".join(self)

    @property
    def n(self) -> str:
        return "\n".join(self)

    @property
    def l(self) -> list:  # noqa: E743 - IPython's own name
        return list(self)


class Shell:
    """The notebook's `get_ipython()` under doctor."""

    def __init__(self, namespace: dict, filename: str):
        self.user_ns = namespace
        self.filename = filename

    # ---- the calls IPython's transformer writes

    def run_line_magic(self, name: str, line: str):
        if name in ("time", "timeit"):
            return self._run(line, sys._getframe(1), mode="single" if name == "time" else "exec")
        if name == "env":  # %env A=1, %env A 1 set; %env A reads
            text = line.strip()
            if "=" in text or " " in text:
                key, value = text.split("=", 1) if "=" in text else text.split(None, 1)
                os.environ[key.strip()] = value.strip()
                return None
            return os.environ.get(text) if text else dict(os.environ)
        if name == "cd":
            os.chdir(os.path.expanduser(line.strip() or "~"))
            return None
        if name == "run":
            return self._run_script(line)
        if name in QUIET:
            return None
        _say(f"%{name} is not run (doctor runs the notebook's Python; an IPython magic of this kind is passed over).")
        return None

    def run_cell_magic(self, name: str, line: str, cell: str):
        if name in ("time", "timeit", "capture", "prun"):
            return self._run(cell, sys._getframe(1), first_line=sys._getframe(1).f_lineno + 1)
        if name in ("writefile", "file"):
            return self._write(line, cell)
        if name in DISPLAY_CELLS:
            return None
        if name in SHELL_CELLS:
            _say(f"a %%{name} cell is not run (shell commands are passed over under doctor).")
            return None
        _say(f"a %%{name} cell is not run (a cell magic doctor does not run; its body is not Python).")
        return None

    def system(self, command: str) -> None:
        _say(f"!{command} is not run (shell commands are passed over under doctor).")

    def getoutput(self, command: str, split: bool = True):
        """`x = !cmd`: its output is the program's data, so the command runs, in the script's folder."""
        done = subprocess.run(command, shell=True, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        lines = SList(done.stdout.splitlines())
        return lines if split else done.stdout

    # ---- helpers

    def _run(self, code: str, frame, mode: str = "exec", first_line: int | None = None):
        """`code` in the frame that asked, placed at that line of the notebook (its tracebacks and
        the doctor's findings point into the cell)."""
        tree = ast.parse(code, self.filename, "exec")
        ast.increment_lineno(tree, (first_line or frame.f_lineno) - 1)
        names = frame.f_globals if frame.f_locals is frame.f_globals else frame.f_locals
        final = tree.body[-1] if mode == "single" and tree.body else None
        if isinstance(final, ast.Expr):
            tree.body.pop()
            last = ast.Expression(final.value)
            exec(compile(tree, self.filename, "exec"), frame.f_globals, names)
            return eval(compile(last, self.filename, "eval"), frame.f_globals, names)
        exec(compile(tree, self.filename, "exec"), frame.f_globals, names)
        return None

    def _run_script(self, line: str):
        words = line.split()
        if not words or words[0].startswith("-"):
            _say(f"%run {line} is not run (only `%run script.py [args]` is).")
            return None
        old = sys.argv
        sys.argv = words
        try:
            self.user_ns.update(runpy.run_path(words[0], run_name="__main__"))
        finally:
            sys.argv = old
        return None

    def _write(self, line: str, cell: str) -> None:
        words = line.split()
        append = "-a" in words or "--append" in words
        names = [w for w in words if not w.startswith("-")]
        if not names:
            _say("%%writefile without a file name is not run.")
            return
        with open(os.path.expanduser(names[0]), "a" if append else "w", encoding="utf-8") as f:
            f.write(cell)
