"""doctor's instrumentation core: each script in tests/doctor/ runs under the probe (real JAX,
in a separate process) and must give exactly the findings its `# finding: <kind>` markers name,
kind and line; the clean training scripts must give none. All scripts share one process, and
each report crosses the worker pipe's encoding as data before the parent words it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tutor.doctor import wording
from tutor.doctor.findings import Report, group
from tutor.doctor.report_json import report_json
from tutor.doctor.report_text import render_text
from tutor.doctor.teaching import FINDINGS, NAMES
from tutor.protocol import FINDING_CODES, FINDING_KINDS, DoctorReport, Finding, ScriptReport, TraceCount, parse_event

KINDS = FINDING_KINDS

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "doctor"

MARKER = re.compile(r"#\s*finding:\s*([\w-]+)")
CONTRACT_KEYS = {"script", "status", "exit_code", "duration_s", "findings", "stdout", "stderr"}
FINDING_KEYS = {"kind", "function", "file", "line", "count", "message", "lesson"}


def expected(path: Path) -> list[tuple[str, int]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return sorted((m.group(1), i) for i, text in enumerate(lines, 1) if (m := MARKER.search(text)))


def wants_nans(path: Path) -> bool:
    return "# doctor: --nans" in path.read_text(encoding="utf-8")


# --nans scripts first: JAX 0.10.2 misses a NaN under jax_debug_nans switched on after some
# other jitted code ran in the process (clean_train_eval.py, even without the probe). A real
# doctor run is one script per process with the option set before it starts. The planted ones
# first: a clean --nans script's jitted code run before them would hide their NaNs the same way.
ALL = sorted(SCRIPTS.glob("*.py"), key=lambda p: (not wants_nans(p), not expected(p), p.name))
CLEAN = [p for p in ALL if not expected(p)]

BATCH = textwrap.dedent("""
    import contextlib, io, json, sys
    sys.path.insert(0, sys.argv[1])
    from tutor.child.doctor.probe import examine
    from tutor.doctor.findings import Report
    from tutor.doctor.report_json import report_json
    from tutor.course import read_course
    from tutor.protocol import DoctorReport, parse_event
    from pathlib import Path
    taught = read_course(Path(sys.argv[1]))[0].teachings()
    out = {}
    for item in json.loads(sys.argv[2]):
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            sent = examine(item["path"], [], item["nans"])
        line = json.dumps(DoctorReport(sent).to_wire())  # what the worker writes on its pipe
        report = Report.from_wire(parse_event(json.loads(line)).report)
        report.stdout, report.stderr = stdout.getvalue(), stderr.getvalue()
        data = report_json(report, "en", taught)
        data["codes"] = [f.code for f in report.findings]
        data["traced"] = [[t.function, t.count, t.seconds] for t in report.traces]
        out[item["path"]] = data
    print("REPORTS " + json.dumps(out))
""")


def _env() -> dict:
    # XLA's backend optimizations change neither traces, cache misses, donation nor NaNs, and
    # skipping them takes about a third off this file's CPU time (compiles dominate it).
    flags = (os.environ.get("XLA_FLAGS", "") + " --xla_backend_optimization_level=0").strip()
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONPATH=str(ROOT), XLA_FLAGS=flags)
    env.pop("JAX_DISABLE_JIT", None)
    return env


@pytest.fixture(scope="module")
def reports() -> dict:
    items = [{"path": str(p), "nans": wants_nans(p)} for p in ALL]
    done = subprocess.run(
        [sys.executable, "-c", BATCH, str(ROOT), json.dumps(items)],
        capture_output=True,
        text=True,
        # a ceiling, not a speed: the batch took 508 s at load 13 and ran past 600 s at load 27
        # on 2 cores (every test of the file errored with it)
        timeout=2400,
        env=_env(),
    )
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("REPORTS ")), None)
    assert line, f"the batch printed no reports (exit {done.returncode}):\n{done.stderr[-3000:]}"
    return json.loads(line[len("REPORTS ") :])


@pytest.mark.slow  # `reports` runs every script under the probe, with JAX
@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_findings_match_markers(reports, path):
    report = reports[str(path)]
    got = sorted((f["kind"], f["line"]) for f in report["findings"])
    assert got == expected(path), (
        f"{path.name}: findings {report['findings']}\n"
        f"stdout: {report['stdout'][-800:]}\nstderr: {report['stderr'][-1500:]}"
    )
    for f in report["findings"]:
        assert f["file"] == path.name and f["count"] >= 1 and f["message"]
    assert set(report) - {"codes", "traced", "blinded", "notes"} == CONTRACT_KEYS  # `blinded`: only when a detector was
    assert report["status"] in ("findings", "error") if got else report["status"] == "ok"


def test_every_kind_is_triggered_twice_and_three_clean_scripts_stay_clean():
    per_kind = {kind: sum(any(k == kind for k, _ in expected(p)) for p in ALL) for kind in KINDS}
    assert all(n >= 2 for n in per_kind.values()), per_kind
    assert len(CLEAN) >= 3


@pytest.mark.slow
def test_script_output_and_exit_code_pass_through(reports):
    clean = reports[str(SCRIPTS / "clean_scan_training.py")]
    assert clean["exit_code"] == 0 and "lr 0.05: first" in clean["stdout"]
    used_after = reports[str(SCRIPTS / "donation_used_after.py")]
    assert used_after["status"] == "error" and used_after["exit_code"] == 1
    assert "RuntimeError" in used_after["stderr"] and "tutor/child" not in used_after["stderr"]


@pytest.mark.slow
def test_retrace_reasons_come_from_comparing_the_two_calls(reports):
    def codes(name):
        return reports[str(SCRIPTS / name)]["codes"]

    assert codes("retrace_weak_start.py") == ["weak-type"]
    assert codes("retrace_jit_in_loop.py") == ["new-function"]
    assert codes("retrace_growing_shape.py") == ["shape"]
    # the doctor's own comparison: the same reason on JAX 0.10.2 and on 0.12 (which gives none for a static)
    assert codes("retrace_static_lr.py")[0] == "static"
    (remade,) = reports[str(SCRIPTS / "retrace_new_optimizer_each_step.py")]["findings"]
    assert codes("retrace_new_optimizer_each_step.py") == ["static"]
    said = "`optim` is a new `GradientTransformationExtraArgs` object whose init, update were made anew"
    assert said in remade["message"] and "PyTreeDef" not in remade["message"], remade
    assert "optax.inject_hyperparams" in remade["message"]  # the advice for an object made anew, not a flag's
    weak = reports[str(SCRIPTS / "retrace_weak_start.py")]["findings"][0]
    assert weak["lesson"] == "6.8" and "`state[0]` is f32[], was 0.0 (float) (its weak type changed)" in weak["message"]
    # the call before differs by the weak type alone, whatever older key JAX finds closest
    later = max(reports[str(SCRIPTS / "retrace_reason_previous_call.py")]["findings"], key=lambda f: f["line"])
    assert codes("retrace_reason_previous_call.py") == ["weak-type", "weak-type"]
    assert "`total` is 0.0 (float), was f32[] (its weak type changed)" in later["message"], later


@pytest.mark.slow
def test_one_array_donated_twice_is_named_by_its_two_paths_in_the_state(reports):
    report = reports[str(SCRIPTS / "donation_aliased_state.py")]
    (found,) = report["findings"]
    assert report["status"] == "error" and report["codes"] == ["aliased"]
    assert "`state.params['b']` and `state.avg_params['b']` are the same array" in found["message"], found
    assert "1 more pair" in found["message"] and found["function"] == "main"


def test_a_function_jax_made_itself_is_told_from_the_learners():
    """JAX 0.12 traces a jitted function's transpose (a function in jax/_src/pjit.py) under the
    learner's name and line: JAX's, so not "built anew". The learner's, however wrapped, is theirs."""
    import functools

    import jax
    import jax.numpy as jnp

    from tutor.child.doctor.retraces import made_by_jax

    def f(x, eps=0.0):
        return x + eps

    assert made_by_jax(jnp.sum)
    for theirs in (f, functools.partial(f, eps=1.0), jax.checkpoint(f), jax.vmap(f), lambda x: x):
        assert not made_by_jax(theirs), theirs
    assert not made_by_jax(None) and not made_by_jax(object())


def test_the_doctor_compares_two_calls_argument_by_argument():
    import dataclasses

    import jax.numpy as jnp
    import optax

    from tutor.child.doctor.arguments import Call, describe, differences, reason

    def call(**arguments) -> Call:
        import jax

        leaves, structures, types = [], [], []
        for name, value in arguments.items():
            flat, tree = jax.tree_util.tree_flatten_with_path(value)
            structures.append((name, tree))
            types.append((name, type(value).__qualname__))
            leaves += [(name + jax.tree_util.keystr(p), describe(v)) for p, v in flat]
        return Call(tuple(leaves), tuple(structures), tuple(types))

    def said(before: Call, now: Call) -> list[tuple[str, str, str, str]]:
        return [c.flat() for c in differences(before, now)]

    x3, x4 = jnp.zeros(3), jnp.zeros(4)
    assert said(call(x=x3), call(x=x3)) == [] and reason([]) is None
    assert said(call(x=x3), call(x=x4)) == [("shape", "x", "f32[3]", "f32[4]")]
    assert said(call(t=0.0), call(t=jnp.float32(0))) == [("weak-type", "t", "0.0 (float)", "f32[]")]
    assert said(call(t=0), call(t=jnp.asarray(0))) == []  # a Python int is a weak i32, as jnp.asarray(0) is
    assert said(call(s={"a": x3}), call(s={"b": x3})) == [("structure", "s", "s['a']", "s['b']")]
    # a new optimizer: its functions made anew, said once, at the argument; an equal config is no change
    a, b = optax.adam(1e-2), optax.adam(1e-2)
    (new,) = differences(call(opt=a), call(opt=b))
    assert (new.how, new.path, new.now) == ("new-object", "opt", "init, update") and reason([new]) == "static"

    @dataclasses.dataclass(frozen=True)
    class Config:
        lr: float

    @dataclasses.dataclass
    class Loose:  # equal by value but unhashable: never the same static key
        lr: float

    assert said(call(c=Config(0.1)), call(c=Config(0.1))) == []
    (loose,) = differences(call(c=Loose(0.1)), call(c=Loose(0.1)))
    assert loose.how == "new-object"
    (config,) = differences(call(c=Config(0.1)), call(c=Config(0.2)))
    assert config.how == "new-object" and config.now == "lr: 0.1 -> 0.2"
    # a number's new value is a reason only when nothing else changed (under jax.jit it is traced)
    assert said(call(lr=0.1, x=x3), call(lr=0.2, x=x4)) == [("shape", "x", "f32[3]", "f32[4]")]
    assert said(call(lr=0.1), call(lr=0.2)) == [("value", "lr", "0.1 (float)", "0.2 (float)")]
    # the most decisive first: a weak type before a new object
    both = differences(call(t=0.0, opt=a), call(t=jnp.float32(0), opt=b))
    assert [c.how for c in both] == ["weak-type", "new-object"] and reason(both) == "weak-type"


def test_a_finding_inside_a_library_says_so_and_comes_after_the_learners_own():
    from tutor.child.doctor.owners import library_path, where_inside

    site = "/usr/lib/python3.11/site-packages/"
    assert library_path(site + "numpyro/infer/util.py") == "numpyro/infer/util.py"
    assert library_path("/v/lib/python3.12/dist-packages/optax/_src/alias.py") == "optax/_src/alias.py"
    for not_a_library in (site + "jax/_src/random.py", site + "numpy/core/x.py", site + "tutor/x.py", "/home/me/t.py"):
        assert library_path(not_a_library) is None, not_a_library
    # two uses within one call into numpyro: where its code went on to consume the key again
    run, init = (1, "numpyro/infer/mcmc.py", 680), (2, "numpyro/infer/util.py", 700)
    first = (run, init, (3, "numpyro/handlers.py", 90))
    again = (run, (2, "numpyro/infer/util.py", 841), (4, "numpyro/infer/util.py", 435))
    assert where_inside(first, again) == "numpyro/infer/util.py:841"
    theirs = Finding("key-reuse", "reused", "fit.py", 20, count=6, first_line=9, inside="numpyro/infer/util.py:841")
    mine = Finding("host-sync", "per-step", "fit.py", 40, count=30, via=("float()",), seconds=0.0)
    assert group([theirs, mine]) == [mine, theirs]
    en, zh = wording.what(theirs, "en"), wording.what(theirs, "zh")
    assert "inside numpyro (`numpyro/infer/util.py:841`), called from your line 20" in en, en
    assert "numpyro 内部" in zh and "第 20 行" in zh, zh


def test_a_retrace_reason_lists_every_difference_jax_gives():
    from tutor.child.doctor.retraces import classify

    head = "  all previously seen cache keys differ. For the closest previous key:\n  different input types:\n"
    url = "https://docs.jax.dev/en/latest/101/type_promotion.html#weak-types"
    both = head + (  # JAX 0.12: a Python number first, then a vector; and another argument's shape
        "  * at x, now f32[3]({}){weak_type=False} and before f32[]({}){weak_type=True}\n"
        "  * at y, now f32[4] and before f32[3]" + url
    )
    assert classify(both) == ("weak-type", "x: f32[]{weak_type} -> f32[3]; y: f32[3] -> f32[4]")
    weak = head + "  * at x, now f32[]({}){weak_type=False} and before f32[]({}){weak_type=True}" + url
    assert classify(weak) == ("weak-type", "x: f32[]{weak_type} -> f32[]")
    shape = head + "  * at total, now f32[3]({}) and before f32[]({})"  # JAX 0.10.2 says no weak type here
    assert classify(shape) == ("shape", "total: f32[] -> f32[3]")
    f = Finding("retrace", "weak-type", "t.py", 9, function="f", explanation=classify(both)[1])
    assert "x: f32[]{weak_type} -> f32[3]; y: f32[3] -> f32[4]" in wording.what(f, "en")
    assert "shape" in wording.why(f, "en") and "形状" in wording.why(f, "zh")


@pytest.mark.slow
def test_a_blinded_detector_is_said_never_hidden_behind_no_findings(reports):
    silenced = reports[str(SCRIPTS / "retrace_logging_silenced.py")]  # logging.disable: seen through
    assert silenced["codes"] in (["static"], ["unexplained"]) and "blinded" not in silenced
    off = reports[str(SCRIPTS / "blind_explanations_off.py")]  # explanations off: said, not hidden
    assert off["status"] == "ok" and off["blinded"] == ["logging"]
    report = Report.from_wire(ScriptReport("blind_explanations_off.py", "ok", 0, 1.0, blinded=("logging",)))
    text = render_text(report, "en")
    assert "Retraces were not watched" in text and "No findings among what the doctor could see" in text
    assert "was traced" not in text and "nothing the chapter warns about" not in text
    stopped = Report.from_wire(ScriptReport("t.py", "timeout", None, 5.0, blinded=("stopped",)))
    assert "No findings in the part of the script that ran." in render_text(stopped, "en")


def test_words_about_traces_claim_only_what_was_seen():
    def both(f):
        return wording.message(f, "en"), wording.message(f, "zh")

    once = Finding("retrace", "rewrapped", "t.py", 5, function="f", count=9, traced=1)
    many = Finding("retrace", "rewrapped", "t.py", 5, function="f", count=55, traced=56)
    unknown = Finding("retrace", "rewrapped", "t.py", 5, function="f", count=9)
    assert "traced once" in both(once)[0]
    assert "traced once" not in both(many)[0] and "traced 56 times" in both(many)[0] and "56" in both(many)[1]
    assert "traced once" not in both(unknown)[0] and "只追踪了一次" not in both(unknown)[1]
    body = Finding("retrace", "new-function", "t.py", 8, function="body", count=4, name="fori_loop")
    assert "jax.jit" not in both(body)[0] and "`fori_loop`" in both(body)[0] and "`fori_loop`" in both(body)[1]
    jitted = Finding("retrace", "new-function", "t.py", 8, function="step", count=4)
    assert "jax.jit is applied to a new function object" in both(jitted)[0]
    pmapped = Finding("retrace", "new-function", "t.py", 8, function="update", count=4, name="pmap")
    assert "jax.jit" not in both(pmapped)[0] and "`jax.pmap(update)`" in both(pmapped)[0]
    assert "`jax.pmap(update)`" in both(pmapped)[1] and "jax.pmap compiles once per function object" in both(pmapped)[0]
    trace = TraceCount("step", 8, 6, "model.py", 1.234)
    assert wording.trace_count(trace, "en") == "step (model.py:8) ×6, 1.23 s making it"
    assert wording.trace_count(TraceCount("step", 8, 1), "en") == "step:8 ×1"


def test_an_option_after_the_script_that_the_script_also_declares_is_refused_not_taken(tmp_path):
    from tutor.doctor import options

    argp = tmp_path / "train.py"
    argp.write_text('import argparse\np = argparse.ArgumentParser()\np.add_argument("--nans", action="store_true")\n')
    absl = tmp_path / "app.py"
    absl.write_text(
        'from absl import flags\nflags.DEFINE_integer("timeout", 3, "s")\nflags.DEFINE_bool("json", 0, "")\n'
    )
    plain = tmp_path / "plain.py"
    plain.write_text("import sys\nprint(sys.argv)\n")
    for words, option in (
        ([str(argp), "--epochs", "2", "--nans"], "--nans"),
        ([str(absl), "--json", "--timeout", "5"], "--json"),
        ([str(absl), "--timeout=5"], "--timeout S"),
    ):
        with pytest.raises(options.OptionsError) as caught:
            options.parse(words)
        said = caught.value.message
        assert f"{option} after the script is ambiguous" in said.en and "--" in said.en, said.en
        assert "歧义" in said.zh and "之前" in said.zh
    assert options.parse(["--nans", str(argp), "--epochs", "2"]).nans  # before SCRIPT: the doctor's
    assert options.parse([str(argp), "--", "--nans"]).args == ("--nans",)  # after --: the script's
    taken = options.parse([str(plain), "--epochs", "2", "--json", "--timeout", "5", "--nans"])  # DESIGN.md's form
    assert (taken.args, taken.json, taken.timeout_s, taken.nans) == (("--epochs", "2"), True, 5.0, True)


NOTEBOOK_RUN = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, sys.argv[1])
    from tutor.child.doctor.probe import examine
    report = examine(sys.argv[2])
    print("REPORT " + json.dumps([report.status, report.exit_code]))
""")


@pytest.mark.slow
@pytest.mark.parametrize("ipython", [True, False], ids=["ipython", "fallback"])
def test_a_notebook_runs_as_ipython_reads_it(tmp_path, ipython):
    if ipython:
        pytest.importorskip("IPython.core.inputtransformer2")
    cells = [
        "import jax.numpy as jnp\nx = jnp.ones(3)  # is this a vector?\n",  # was dropped as help: NameError
        "%%bash\necho from-bash\n",  # was run as Python: a SyntaxError showing the notebook's JSON
        "%%writefile helper.py\ndef double(v):\n    return v * 2\n",
        "files = !ls\nprint('files:', sorted(files))\nfrom helper import double\n%time y = double(x)\nlen?\n",
        "!pip install nothing-at-all\nprint('sum', float(y.sum()))\n",
        "def boom(v):\n    return v[10]\n\nboom([1])\n",
    ]
    doc = {"cells": [{"cell_type": "code", "source": c} for c in cells], "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "demo.ipynb").write_text(json.dumps(doc), encoding="utf-8")
    prelude = "" if ipython else "import sys; sys.modules['IPython'] = None\n"  # as if not installed
    done = subprocess.run(
        [sys.executable, "-c", prelude + NOTEBOOK_RUN, str(ROOT), str(tmp_path / "demo.ipynb")],
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(),
        cwd=tmp_path,
    )
    assert 'REPORT ["error", 1]' in done.stdout, done.stdout + done.stderr
    assert "files: ['demo.ipynb', 'helper.py']" in done.stdout and "sum 6.0" in done.stdout
    assert "from-bash" not in done.stdout and "a %%bash cell is not run" in done.stderr
    assert "!pip install nothing-at-all is not run" in done.stderr
    assert 'demo.ipynb", cell 6, line 4, in <module>' in done.stderr, done.stderr
    assert 'demo.ipynb", cell 6, line 2, in boom' in done.stderr and "IndexError" in done.stderr
    assert "NameError" not in done.stderr and "SyntaxError" not in done.stderr and "tutor/child" not in done.stderr


@pytest.mark.slow
def test_each_jitted_function_says_what_making_it_cost(reports):
    """Tracing, lowering and compiling time per function, from JAX's monitoring events: a
    static learning rate compiled anew for every value costs about as many compiles."""
    (sgd,) = [t for t in reports[str(SCRIPTS / "retrace_static_lr.py")]["traced"] if t[0] == "sgd"]
    assert sgd[1] >= 4 and sgd[2] > 0, sgd
    clean = reports[str(SCRIPTS / "clean_scan_training.py")]["traced"]
    assert clean and all(seconds > 0 for _name, _count, seconds in clean), clean  # every trace costs time


@pytest.mark.slow
def test_a_warning_from_inside_jax_is_placed_at_the_learners_line(reports):
    path = SCRIPTS / "clean_random_dtype_warning.py"
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "# JAX warns here" in text)
    stderr = reports[str(path)]["stderr"]
    assert f"clean_random_dtype_warning.py:{line}: UserWarning" in stderr, stderr
    assert "tutor/child" not in stderr


def test_the_course_teaches_every_finding_but_a_nan(course):
    """The shipped course's cells declare (`teaches:`) where each finding's fix is shown; no lesson
    is about NaN, so that finding stands alone."""
    taught = course.teachings()
    assert set(taught) == NAMES - {"nan/first"}
    lessons = {lesson.id: lesson for lesson in course.lessons}
    for name, (lesson_id, cell_id) in taught.items():
        assert cell_id in {c.id for c in _cells(lessons[lesson_id])}, name


def _cells(lesson):
    return [block.cell for block in lesson.blocks if block.cell is not None]


def _every_finding() -> list[Finding]:
    """One finding of every (kind, code), with every field its words may use, and the variants
    whose words differ (a key first consumed elsewhere, on this line, or where unknown; a host
    pull outside any jitted call's loop; a retrace JAX did not explain)."""
    full = dict(name="total", types="float32[3]", via=("float()",), primitive="log", first_line=2, explanation="x")
    found = [Finding(kind, code, "train.py", 3, function="step", count=2, **full) for kind, code in FINDINGS]
    found += [
        Finding("key-reuse", "reused", "train.py", 3, function="step", count=1, first_line=3),
        Finding("key-reuse", "reused", "train.py", 3, function="step", count=1),
        Finding("key-reuse", "reused", "train.py", 3, function="step", count=3, first_line=2, name="vmap"),
        Finding("key-reuse", "remade", "train.py", 3, count=2, first_line=5, name="fold_in"),
        Finding("key-reuse", "loop-constant", "train.py", 3, function="body", first_line=2, noticed_line=2),
        Finding("host-sync", "per-step", "train.py", 3, count=40, via=("float()", ".item()")),
        Finding("retrace", "shape", "train.py", 3, function="step", count=1),
        Finding("donation", "aliased", "train.py", 3, function="main", paths=("s.params['w']", "s.avg['w']")),
        Finding("retrace", "new-function", "train.py", 3, function="body", count=2, name="scan"),
        Finding("retrace", "rewrapped", "train.py", 3, function="step", count=2, traced=5),
        Finding("retrace", "rewrapped", "train.py", 3, function="step", count=2, traced=1),
        Finding(
            "donation", "aliased", "train.py", 3, paths=("s.params['w']", "s.avg['w']", "s.params['b']", "s.avg['b']")
        ),
    ]
    changes = [  # a retrace told by the doctor's own comparison of two calls, every kind of change
        ("structure", "state", "state['a']", "state['b']"),
        ("structure", "state", "", ""),
        ("shape", "xs", "f32[4]", "f32[5]"),
        ("weak-type", "total", "0.0 (float)", "f32[]"),
        ("new-object", "optim", "`GradientTransformation`", ""),
        ("new-object", "optim", "`GradientTransformation`", "init, update"),
        ("new-object", "config", "`Config`", "lr: 0.1 -> 0.2"),
        ("value", "lr", "0.1 (float)", "0.05 (float)"),
    ]
    reasons = {"structure": "structure", "shape": "shape", "weak-type": "weak-type"}
    found += [
        Finding("retrace", reasons.get(c[0], "static"), "train.py", 3, function="step", count=2, changed=c)  # type: ignore[arg-type]
        for c in changes
    ]
    return found


def test_every_code_of_the_protocol_has_a_lesson_entry_and_words_in_both_languages():
    assert {code for _, code in FINDINGS} == set(FINDING_CODES) and {k for k, _ in FINDINGS} == set(FINDING_KINDS)
    for f in _every_finding():
        en, zh = wording.message(f, "en"), wording.message(f, "zh")
        assert en and zh and en != zh, f
        assert re.search(r"[\u4e00-\u9fff]", zh), (f, zh)
        assert not re.search(r"[\u4e00-\u9fff]", en), (f, en)
        assert "{" not in en + zh and "None" not in en + zh, (f, en, zh)  # every placeholder filled
        assert en.startswith(wording.what(f, "en")) and en.endswith(wording.why(f, "en"))


def test_the_words_follow_the_data():
    def what(lang="en", **fields):
        kind, code = fields.pop("kind", "key-reuse"), fields.pop("code", "reused")
        return wording.what(Finding(kind, code, "t.py", 7, **fields), lang)

    assert what(function="step", first_line=5) == (
        "A PRNG key already consumed (first consumed at line 5) was consumed again here, once."
    )
    assert "at this line on an earlier pass" in what(function="step", first_line=7, count=3)
    assert what(count=2) == "A PRNG key already consumed was consumed again here, 2 times."
    pulls = dict(kind="host-sync", code="per-step", count=40, via=("float()", ".item()"))
    assert what(**pulls) == "A device value was pulled to the host (float(), .item()) 40 times at this line in a loop."
    assert what(**pulls, function="step").endswith("in the loop around `step`.")
    assert what(kind="retrace", code="shape", function="f") == "`f` was traced again once from this call."
    weak = dict(kind="retrace", code="weak-type", function="f", count=2, explanation="weak_type=True")
    assert what("zh", **weak) == "`f` 在这次调用处被重新追踪了 2 次：weak_type=True。"
    # the line to change is the finding's line; where the problem showed comes second, in both languages
    assert what(count=1, first_line=17, noticed_line=18).endswith("once. The reuse shows at line 18.")
    assert what("zh", noticed_line=18).endswith("复用在第 18 行显现出来。")
    nan = dict(kind="nan", code="first", primitive="log", noticed_line=22)
    assert (
        what(**nan)
        == "The first NaN/inf came out of `log`. JAX's check stopped later, at line 22, where the value spread."
    )
    assert "第 22 行" in what("zh", **nan)
    assert "line 7" not in what(noticed_line=7)  # the same line is not said twice
    # a key's variants say how it came back: one key for a vmap's rows, a fold_in of one number, an
    # old key handed back in a loop's carry (the split that shows it said second)
    vmap = what(count=3, first_line=11, name="vmap")
    assert vmap.startswith("This vmap gives 3 of its rows a PRNG key another row also gets (consumed at line 11)")
    assert "fold" in what(code="remade", first_line=13, count=2, name="fold_in")
    assert what(code="remade", first_line=13, count=2, name="total").startswith("This line makes the same")
    carry = what(code="loop-constant", first_line=13, noticed_line=13)
    assert "hands the old key back here" in carry and carry.endswith("The reuse shows at line 13.")
    assert "放回" in what("zh", code="loop-constant", first_line=13, noticed_line=13)


def test_grouping_and_the_json_contract(course):
    a = Finding("host-sync", "per-step", "t.py", 9, function="step", count=30, via=("float()",))
    b = Finding("host-sync", "per-step", "t.py", 9, function="step", count=5, via=("float()",))
    c = Finding("retrace", "weak-type", "t.py", 4, function="step")
    top = Finding("side-effect", "print", "t.py", 2, function="<module>")
    merged = group([a, b, c, top])
    assert [(f.kind, f.line, f.count, f.function) for f in merged] == [
        ("side-effect", 2, 1, None),
        ("retrace", 4, 1, "step"),
        ("host-sync", 9, 35, "step"),
    ]
    report = Report("t.py", exit_code=0, duration_s=1.25, findings=merged)
    report.decide_status(failed=False)
    data = report_json(report, "zh", course.teachings())
    assert set(data) == CONTRACT_KEYS and data["status"] == "findings" and report.cli_exit_code() == 1
    assert all(FINDING_KEYS <= set(f) for f in data["findings"])
    assert data["findings"][1]["message"] == wording.message(c, "zh") and data["findings"][1]["lesson"] == "6.8"
    assert json.loads(json.dumps(data)) == data


def test_the_report_crosses_the_pipe_as_data_without_words():
    sent = ScriptReport(
        "t.py",
        "findings",
        0,
        1.5,
        (
            Finding("key-reuse", "reused", "t.py", 7, function="step", count=3, first_line=5),
            Finding("host-sync", "per-step", "t.py", 9, count=40, via=("float()", ".item()")),
        ),
        (TraceCount("step", 4, 2),),
    )
    wire = json.loads(json.dumps(DoctorReport(sent).to_wire()))
    assert parse_event(wire) == DoctorReport(sent)
    assert "message" not in json.dumps(wire) and "lesson" not in json.dumps(wire)
    for broken in ({"status": "weird"}, {"findings": [{**wire["report"]["findings"][0], "code": "soon"}]}):
        with pytest.raises(ValueError):
            parse_event({**wire, "report": {**wire["report"], **broken}})


def test_the_parent_side_imports_no_jax_and_no_textual():
    modules = (
        "tutor.doctor",
        "tutor.doctor.findings",
        "tutor.doctor.wording",
        "tutor.doctor.teaching",
        "tutor.doctor.options",
        "tutor.doctor.running",
        "tutor.doctor.report_text",
        "tutor.doctor.report_json",
        "tutor.cli.doctor",
        "tutor.child.doctor.script_code",
    )
    code = (
        f"import sys; import {', '.join(modules)}; bad = [m for m in ('jax', 'textual') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_loop_analysis_tells_every_pass_from_sometimes(tmp_path):
    from tutor.child.doctor.script_code import ScriptCode

    source = textwrap.dedent("""\
        def log(v):
            return float(v)
        for step in range(10):
            a = float(step)
            if float(step) > 3:
                b = float(step)
            else:
                c = float(step)
            try:
                d = float(step)
            except ValueError:
                e = float(step)
            f = [float(x) for x in range(3)]
        g = float(1)
        """)
    path = tmp_path / "loops.py"
    path.write_text(source, encoding="utf-8")
    code = ScriptCode(str(path))
    every = {line: (loop.every_pass if (loop := code.loop_around(line)) else None) for line in range(1, 15)}
    assert every[2] is None and every[14] is None  # a function body, and code after the loop
    assert every[4] and every[5] and every[10] and every[13]  # plain, an if's test, a try body
    assert every[6] is False and every[8] is False and every[12] is False
    assert code.loop_around(4) == code.loop_around(13) and code.loop_around(4).first == 3
