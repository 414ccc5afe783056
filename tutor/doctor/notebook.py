"""A Jupyter notebook (.ipynb) as one script: its code cells in order, as if run one after another
from the top (what "Run All" does), for doctor. No JAX: the parent checks a notebook can be read,
the worker runs it.

Each cell keeps its lines, one blank line apart, so a line of the script names its cell. IPython's
own syntax is read as IPython reads it: with IPython's own input transformer
(IPython.core.inputtransformer2.TransformerManager) when IPython is importable, which is wherever
notebooks run; else with a line-based fallback here that knows the common forms. Either way a
form becomes the call IPython makes of it, on the same line:

    %time x = f()       get_ipython().run_line_magic('time', 'x = f()')
    !pip install jax    get_ipython().system('pip install jax')
    files = !ls         files = get_ipython().getoutput('ls')
    len?  /  f??        get_ipython().run_line_magic('pinfo', 'len')
    %%writefile a.py    get_ipython().run_cell_magic('writefile', 'a.py', '<the cell>')  (whole cell)

and the worker's stand-in for `get_ipython()` (tutor.child.doctor.ipython_shim) says what each
does under doctor. A cell a transform shortens (a cell magic) is padded with blank lines, so every
line after it keeps its place. `x = 1  # why?` is Python with a comment, not a request for help.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from tutor.errors import TutorError
from tutor.i18n import Bilingual

SUFFIX = ".ipynb"


class NotANotebook(TutorError):
    """The file is not a notebook this can read (its reason is the message)."""

    def __init__(self, why: str):
        super().__init__(Bilingual.same(why))


@dataclass(frozen=True)
class Script:
    source: str
    starts: tuple[tuple[int, int], ...]  # (first line in the script, the cell's number among all cells)

    def where(self, line: int) -> tuple[int, int]:
        """(cell number, line in that cell) of a line of the script (both from 1)."""
        cell, first = 0, 1
        for start, number in self.starts:
            if start > line:
                break
            cell, first = number, start
        return cell, line - first + 1


def code_cells(path: str) -> list[tuple[int, str]]:
    """(the cell's number among all cells, its text) of every code cell; NotANotebook if the file
    is not a notebook."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        cells = doc["cells"]
        if not isinstance(cells, list):
            raise TypeError("cells is not a list")
    except (OSError, UnicodeError, ValueError, KeyError, TypeError) as exc:
        raise NotANotebook(f"{type(exc).__name__}: {exc}") from None
    out = []
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        out.append((number, "".join(source) if isinstance(source, list) else str(source)))
    return out


def read(path: str, ipython: bool = True) -> Script:
    """The notebook's code cells as one script. `ipython`: transform with IPython's own
    transformer when it can be imported (False: the fallback, which imports nothing)."""
    transform = _ipython_transform() if ipython else None
    lines: list[str] = []
    starts: list[tuple[int, int]] = []
    for number, text in code_cells(path):
        starts.append((len(lines) + 1, number))
        lines.extend(as_python(text, transform))
        lines.append("")
    return Script("\n".join(lines) + "\n", tuple(starts))


def check(path: str) -> None:
    """NotANotebook if `path` cannot be read as a notebook (nothing is transformed)."""
    code_cells(path)


def as_python(cell: str, transform=None) -> list[str]:
    """One cell's lines as Python, as many as the cell has (a shorter transform is padded)."""
    original = cell.splitlines()
    try:
        out = (transform or _fallback)(cell).splitlines()
    except Exception:  # noqa: BLE001 - a cell IPython's transformer cannot read: the fallback's reading
        out = _fallback(cell).splitlines()
    return out + [""] * (len(original) - len(out))


def _ipython_transform():
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except Exception:  # noqa: BLE001 - IPython missing or broken: the fallback
        return None
    return TransformerManager().transform_cell


_CELL_MAGIC = re.compile(r"^%%(?P<name>\w+)[ \t]*(?P<line>.*)$")
_ASSIGNED = re.compile(r"^(?P<indent>\s*)(?P<target>[\w.,\s\[\]()*]+?)\s*=\s*(?P<kind>[!%])(?P<rest>.*)$")
_LINE_FORM = re.compile(r"^(?P<indent>\s*)(?P<kind>!!|!|%)(?P<rest>.*)$")
_HELP = re.compile(r"^(?P<indent>\s*)(?P<pre>\?{1,2})?(?P<name>[A-Za-z_][\w.]*(?:\(\))?)(?P<post>\?{1,2})?\s*$")


def _call(what: str, *args: str) -> str:
    return f"get_ipython().{what}({', '.join(repr(a) for a in args)})"


def _magic(rest: str) -> str:
    name, _, line = rest.partition(" ")
    return _call("run_line_magic", name, line.strip())


def _fallback(cell: str) -> str:
    """IPython's forms without IPython: a cell magic, line magics, shell escapes (alone or
    assigned), help requests. Line by line: a `%` or `!` at a line's start inside a multi-line
    string would be read as IPython's (IPython's own transformer knows better)."""
    lines = cell.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None:
        magic = _CELL_MAGIC.match(lines[first])
        if magic:
            body = "".join(line + "\n" for line in lines[first + 1 :])
            return _call("run_cell_magic", magic["name"], magic["line"].strip(), body)
    out = []
    for line in lines:
        assigned = _ASSIGNED.match(line)
        form = _LINE_FORM.match(line)
        helped = _HELP.match(line)
        if assigned and assigned["target"].strip() and not assigned["rest"].startswith("="):
            call = _call("getoutput", assigned["rest"].strip()) if assigned["kind"] == "!" else _magic(assigned["rest"])
            out.append(f"{assigned['indent']}{assigned['target'].strip()} = {call}")
        elif form and form["kind"] == "%":
            out.append(form["indent"] + _magic(form["rest"]))
        elif form:
            what = "getoutput" if form["kind"] == "!!" else "system"
            out.append(form["indent"] + _call(what, form["rest"].strip()))
        elif helped and (helped["pre"] or helped["post"]):
            deep = len(helped["pre"] or helped["post"] or "") == 2
            out.append(helped["indent"] + _call("run_line_magic", "pinfo2" if deep else "pinfo", helped["name"]))
        else:
            out.append(line)
    return "\n".join(out) + ("\n" if out else "")


def is_notebook(path: str) -> bool:
    return str(path).endswith(SUFFIX)
