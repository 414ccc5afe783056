"""A notebook as one script (tutor/doctor/notebook.py): code cells in order, IPython's own lines
made `pass` at their indent, and every line of the script traced back to its cell."""

from __future__ import annotations

import json

import pytest

from tutor.doctor import notebook


def test_code_cells_in_order_with_ipython_lines_passed_and_lines_traced_to_cells(tmp_path):
    path = tmp_path / "n.ipynb"
    cells = [
        {"cell_type": "markdown", "source": "# title"},
        {"cell_type": "code", "source": ["%time x = 1\n", "y = 2"]},
        {"cell_type": "raw", "source": "not run"},
        {"cell_type": "code", "source": "for i in range(2):\n    !echo $i\n    z = i\nlen?"},
    ]
    path.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    script = notebook.read(str(path))
    assert script.source.splitlines() == [
        "pass  # %time x = 1",
        "y = 2",
        "",
        "for i in range(2):",
        "    pass  # !echo $i",
        "    z = i",
        "pass  # len?",
        "",
    ]
    compile(script.source, "n.ipynb", "exec")  # Python, all of it
    assert script.where(2) == (2, 2)
    assert script.where(6) == (4, 3)


@pytest.mark.parametrize("text", ["{not json", "[]", '{"cells": 3}', ""])
def test_what_is_not_a_notebook_says_why(tmp_path, text):
    path = tmp_path / "bad.ipynb"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(notebook.NotANotebook):
        notebook.read(str(path))
