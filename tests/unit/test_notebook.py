"""A notebook as one script (tutor/doctor/notebook.py): code cells in order, IPython's own forms
read as IPython reads them (its own transformer when installed, the fallback otherwise: both
give the same calls), every line kept in its place, and every line traced back to its cell."""

from __future__ import annotations

import json

import pytest

from tutor.doctor import notebook

CELLS = [
    {"cell_type": "markdown", "source": "# title"},
    {"cell_type": "code", "source": ["%time x = 1\n", "y = 2  # is this right?"]},
    {"cell_type": "raw", "source": "not run"},
    {"cell_type": "code", "source": "for i in range(2):\n    !echo $i\n    z = i\nlen?"},
    {"cell_type": "code", "source": "%%bash\necho hi\nls\n"},
    {"cell_type": "code", "source": "files = !ls\nprint(files)"},
]
PYTHON = [
    "get_ipython().run_line_magic('time', 'x = 1')",
    "y = 2  # is this right?",  # a comment ending in `?` is not IPython's help
    "",
    "for i in range(2):",
    "    get_ipython().system('echo $i')",
    "    z = i",
    "get_ipython().run_line_magic('pinfo', 'len')",
    "",
    "get_ipython().run_cell_magic('bash', '', 'echo hi\\nls\\n')",  # a cell magic: the whole cell, by name
    "",
    "",  # padded: the cell keeps its three lines
    "",
    "files = get_ipython().getoutput('ls')",  # was a SyntaxError: doctor exited 3
    "print(files)",
    "",
]


def _write(tmp_path, cells=CELLS):
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5}), encoding="utf-8")
    return str(path)


def test_the_fallback_reads_ipython_forms_as_ipython_does_and_keeps_every_line_in_its_place(tmp_path):
    script = notebook.read(_write(tmp_path), ipython=False)
    assert script.source.splitlines() == PYTHON
    compile(script.source, "n.ipynb", "exec")  # Python, all of it
    assert script.where(2) == (2, 2)
    assert script.where(6) == (4, 3)
    assert script.where(13) == (6, 1)


def test_ipythons_own_transformer_gives_the_same_script(tmp_path):
    pytest.importorskip("IPython.core.inputtransformer2")
    assert notebook.read(_write(tmp_path)).source.splitlines() == PYTHON


@pytest.mark.parametrize("ipython", [False, True], ids=["fallback", "ipython"])
def test_more_forms(tmp_path, ipython):
    if ipython:
        pytest.importorskip("IPython.core.inputtransformer2")
    cells = [
        {"cell_type": "code", "source": "%%writefile helper.py\ndef f():\n    return 1\n"},
        {"cell_type": "code", "source": "%matplotlib inline\nout = %env HOME\nf??\nq = 3 if 1 else 4 # why?"},
    ]
    lines = notebook.read(_write(tmp_path, cells), ipython=ipython).source.splitlines()
    assert lines[0] == "get_ipython().run_cell_magic('writefile', 'helper.py', 'def f():\\n    return 1\\n')"
    assert lines[1:4] == ["", "", ""]
    assert lines[4] == "get_ipython().run_line_magic('matplotlib', 'inline')"
    assert lines[5] == "out = get_ipython().run_line_magic('env', 'HOME')"
    assert lines[6] == "get_ipython().run_line_magic('pinfo2', 'f')"
    assert lines[7] == "q = 3 if 1 else 4 # why?"


@pytest.mark.parametrize("text", ["{not json", "[]", '{"cells": 3}', ""])
def test_what_is_not_a_notebook_says_why(tmp_path, text):
    path = tmp_path / "bad.ipynb"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(notebook.NotANotebook):
        notebook.read(str(path))
    with pytest.raises(notebook.NotANotebook):
        notebook.check(str(path))
