"""A Jupyter notebook (.ipynb) as one script: its code cells in order, as if run one after another
from the top (what "Run All" does), for doctor. No JAX: the parent checks a notebook can be read,
the worker runs it.

Each cell keeps its lines, one blank line apart, so a line of the script names its cell. IPython's
own syntax (`%magic`, `!shell`, `name?`) is not Python: such a line becomes `pass`, at its indent.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

SUFFIX = ".ipynb"
_IPYTHON = re.compile(r"^\s*[%!?]|\?\s*$")


class NotANotebook(ValueError):
    """The file is not a notebook this can read (its reason is the message)."""


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


def read(path: str) -> Script:
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        cells = doc["cells"]
        if not isinstance(cells, list):
            raise TypeError("cells is not a list")
    except (OSError, UnicodeError, ValueError, KeyError, TypeError) as exc:
        raise NotANotebook(f"{type(exc).__name__}: {exc}") from None
    lines: list[str] = []
    starts: list[tuple[int, int]] = []
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else str(source)
        starts.append((len(lines) + 1, number))
        for line in text.splitlines():
            indent = line[: len(line) - len(line.lstrip())]
            lines.append(indent + "pass  # " + line.strip() if _IPYTHON.search(line) else line)
        lines.append("")
    return Script("\n".join(lines) + "\n", tuple(starts))


def is_notebook(path: str) -> bool:
    return str(path).endswith(SUFFIX)
