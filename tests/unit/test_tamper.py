"""What learner code changes in the judge is put back and named (tutor/child/tamper.py), in a
small Python process with no JAX: a rebound function, a new name shadowing a builtin, a class's
method, a function's code object; the environment (builtins here) is put back without a word."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """import builtins, json, types
from tutor.child import tamper

judge = types.ModuleType("judge")
exec('''
def close(got, want):
    if got != want:
        raise AssertionError("far")
class Result:
    def to_wire(self):
        return {"status": "fail"}
counter = 0
''', judge.__dict__)
tamper.keep(judge, judge=True, own_state=("counter",))
tamper.keep(builtins, judge=False)
report = {"quiet": tamper.restore()}
judge.close.__dict__, judge.Result.to_wire.__annotations__  # made on first use: the judge unchanged
report["made on use"] = tamper.restore()
judge.Result.to_wire.__defaults__ = (1,)
report["defaults"] = tamper.restore()
report["defaults back"] = judge.Result.to_wire.__defaults__ is None
real_print, real_close, real_code = builtins.print, judge.close, judge.close.__code__

builtins.print = len
judge.counter = 7
report["environment"] = tamper.restore()
report["print back"] = builtins.print is real_print and judge.counter == 7

judge.close = lambda got, want: None
judge.len = lambda x: 0
judge.Result.to_wire = lambda self: {"status": "pass"}
judge.Result.extra = 1
judge.close.__code__ = (lambda got, want: None).__code__
real_close.__code__ = (lambda got, want: None).__code__
report["judge"] = sorted(tamper.restore())
report["judge back"] = (
    judge.close is real_close and real_close.__code__ is real_code and not hasattr(judge, "len")
    and judge.Result().to_wire() == {"status": "fail"} and not hasattr(judge.Result, "extra")
)
report["changed"] = len(tamper.changed)
print(json.dumps(report))
"""


def test_the_judge_is_put_back_and_named_the_environment_only_put_back():
    proc = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["quiet"] == [] and report["environment"] == [] and report["print back"], report
    assert report["made on use"] == [], report
    assert report["defaults"] == ["judge.Result.to_wire.__code__"] and report["defaults back"], report
    assert report["judge"] == [
        "judge.Result.extra",
        "judge.Result.to_wire",
        "judge.close",
        "judge.close.__code__",
        "judge.len",
    ], report
    assert report["judge back"] and report["changed"] == 6, report


PICKLED = """import copy, json, pickle
from tutor.child import tamper
from tutor.i18n import Bilingual
from tutor.protocol import CheckResult

tamper.keep(Bilingual, judge=True)
tamper.keep(CheckResult, judge=True)
pickle.dumps(Bilingual(zh="a", en="b"))
copy.deepcopy(CheckResult("c", "pass", Bilingual.same("ok")))
quiet = tamper.restore()
Bilingual.__slotnames__ = ["forged"]  # harmless to the judge, but not Python's own value
print(json.dumps({"quiet": quiet, "slotnames kept": "__slotnames__" in vars(Bilingual)}))
"""


def test_pickling_or_copying_the_tutors_objects_is_not_tampering():
    # copyreg caches `__slotnames__` on a class the first time one of its objects is pickled or
    # copied: a worker that loaded the course from its pickle ended `error/tamper` on a correct file.
    proc = subprocess.run([sys.executable, "-c", PICKLED], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report == {"quiet": [], "slotnames kept": True}, report
