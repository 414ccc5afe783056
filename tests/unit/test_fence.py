"""The fence (tutor/child/fence.py) in a small Python process, no JAX: once installed, writes land
only in the allowed folder, whatever the call; the Python-level refusal says why, in both languages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """import ctypes, json, os, subprocess, sys
from tutor.child import fence
inside, outside = sys.argv[1], sys.argv[2]
abi = fence.install([inside])
result = {"abi": abi}
def attempt(name, fn):
    try:
        fn()
        result[name] = "ok"
    except OSError as exc:
        result[name] = str(exc)
attempt("inside", lambda: open(os.path.join(inside, "a.txt"), "w").write("x"))
attempt("open", lambda: open(os.path.join(outside, "progress.json"), "w").write("x"))
attempt("remove", lambda: os.remove(os.path.join(outside, "keep.py")))
attempt("rename", lambda: os.replace(os.path.join(inside, "a.txt"), os.path.join(outside, "keep.py")))
attempt("mkdir", lambda: os.mkdir(os.path.join(outside, "new")))
libc = ctypes.CDLL(None, use_errno=True)
result["ctypes"] = libc.unlink(os.path.join(outside, "keep.py").encode())
result["subprocess"] = subprocess.run(["rm", "-f", os.path.join(outside, "keep.py")]).returncode
print(json.dumps(result))
"""


def test_writes_outside_the_allowed_folder_are_refused(tmp_path):
    inside, outside = tmp_path / "run", tmp_path / "home"
    inside.mkdir()
    outside.mkdir()
    (outside / "keep.py").write_text("the learner's code")
    proc = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(inside), str(outside)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["inside"] == "ok"
    for name in ("open", "remove", "rename", "mkdir"):
        assert "may only change its own folder" in result[name] and "只能修改它自己的文件夹" in result[name], result
    if result["abi"]:  # Landlock: also what Python's hooks never see
        assert result["ctypes"] == -1 and result["subprocess"] != 0, result
    assert (outside / "keep.py").read_text() == "the learner's code"
    assert sorted(p.name for p in outside.iterdir()) == ["keep.py"]
