"""`new-exercise ID --lesson L` and `new-course DIR` (issues 41 and 43), and `--course DIR`: an
author's first files validate at once; a new exercise stays red under `verify ID` until it is
written (its solution never passes by accident), then turns green; a new course validates, lists
and verifies as written. Real commands on copies of the course; the marked tests start workers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.cli.main import Context, main, parse_args
from tutor.course.cases import CASES, counts
from tutor.course.scaffold import new_course
from tutor.settings import COURSE_VAR

ROOT = Path(__file__).resolve().parents[2]


def tutor(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tutor", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600
    )


@pytest.fixture
def course_copy(tmp_path) -> Path:
    """The shipped course, with its red team, in a folder of its own."""
    root = tmp_path / "course"
    for part in ("lessons", "solutions", "tests/cases"):
        shutil.copytree(ROOT / part, root / part)
    return root


@pytest.fixture
def env(tmp_path, cli_env, monkeypatch) -> dict:
    monkeypatch.delenv(COURSE_VAR, raising=False)
    return cli_env(tmp_path / "home")


def _new_exercise_files(root: Path, exercise_id: str) -> set[str]:
    return {
        str(p.relative_to(root))
        for part in (f"lessons/exercises/{exercise_id}", f"tests/cases/{exercise_id}")
        for p in (root / part).rglob("*")
        if p.is_file()
    } | ({f"solutions/{exercise_id}.py"} if (root / f"solutions/{exercise_id}.py").exists() else set())


def test_a_new_exercise_validates_at_once(course_copy, env):
    done = tutor(env, "--course", str(course_copy), "new-exercise", "step-count", "--lesson", "6.3")
    assert done.returncode == 0, done.stderr
    files = _new_exercise_files(course_copy, "step-count")
    assert {"lessons/exercises/step-count/exercise.yaml", "solutions/step-count.py"} <= files
    for name in sorted(files):
        assert name in done.stdout  # every file written is named
    starter = (course_copy / "lessons/exercises/step-count/starter.py").read_text()
    assert "def step_count(" in starter and "TODO" in starter
    assert counts(course_copy / CASES / "step-count") >= (2, 3)  # (correct variants, mutants)
    done = tutor(env, "validate", "--course", str(course_copy))
    assert done.returncode == 0 and "no problems" in done.stdout, done.stdout
    listed = json.loads(tutor(env, "list", "--json", "--course", str(course_copy)).stdout)
    ids = [e["id"] for e in listed["exercises"] if e["lesson"] == "6.3"]
    assert ids[-1] == "step-count"  # after the lesson's last exercise: its order is the lesson's next


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["counter-jit", "--lesson", "6.3"], "exists already"),
        (["Step_Count", "--lesson", "6.3"], "cannot be an exercise id"),
        (["-step", "--lesson", "6.3"], None),  # argparse's own refusal: an option, not an id
        (["step-count", "--lesson", "9.9"], "no lesson '9.9'"),
    ],
    ids=["taken", "bad-id", "option-like", "unknown-lesson"],
)
def test_new_exercise_refuses_with_the_cause(course_copy, env, args, said):
    before = sorted(p for p in course_copy.rglob("*"))
    done = tutor(env | {COURSE_VAR: str(course_copy)}, "new-exercise", *args)
    assert done.returncode == 2, done.stdout + done.stderr
    if said:
        assert said in done.stderr
    assert sorted(p for p in course_copy.rglob("*")) == before  # nothing written


def test_new_exercise_never_writes_over_a_leftover_file(course_copy, env):
    """A solution file left from an exercise whose folder is gone: refused, the file kept."""
    (course_copy / "solutions/old-one.py").write_text("kept = True\n")
    done = tutor(env | {COURSE_VAR: str(course_copy)}, "new-exercise", "old-one", "--lesson", "6.1")
    assert done.returncode == 2 and "solutions/old-one.py" in done.stderr
    assert (course_copy / "solutions/old-one.py").read_text() == "kept = True\n"
    assert not (course_copy / "lessons/exercises/old-one").exists()


def test_a_course_without_a_red_team_gets_no_cases(tmp_path, env):
    """A first tests/cases/ would make validate ask every other exercise for its cases."""
    course = tmp_path / "course"
    assert tutor(env, "new-course", str(course)).returncode == 0
    shutil.rmtree(course / "tests")
    assert tutor(env, "--course", str(course), "new-exercise", "triple", "--lesson", "1").returncode == 0
    assert not (course / "tests").exists()
    done = tutor(env, "--course", str(course), "validate")
    assert done.returncode == 0, done.stdout


@pytest.mark.slow  # workers
def test_a_new_exercise_is_red_until_written_then_green(course_copy, env):
    env = env | {COURSE_VAR: str(course_copy)}
    assert tutor(env, "new-exercise", "step-count", "--lesson", "6.3").returncode == 0
    done = tutor(env, "verify", "step-count", "--json")
    out = json.loads(done.stdout)
    assert done.returncode == 1 and not out["ok"] and out["problems"] == []
    bad = sorted(r["file"] for r in out["results"] if not r["ok"])
    # the scaffold's solution and correct variants do not pass by accident: its check is unwritten
    assert bad == ["case pass_another_style.py", "case pass_as_written.py", "solution"], out
    # the author writes the check, the solution and the correct variants
    checks = course_copy / "lessons/exercises/step-count/checks.py"
    text = checks.read_text()
    body = text[text.index("    # TODO: call") :]
    checks.write_text(
        text.replace(
            "from tutor.child.library import check, expect_no_hidden_state, fail, is_defined",
            "from tutor.child.library import as_float32, call, check, close, expect_no_hidden_state, is_defined",
        ).replace(
            body,
            "    x = np.array([0.0, 2.5, -1.0])\n"
            '    close(call(step_count, as_float32(x), label="step_count(x)"), x + 1, what="step_count(x)")\n',
        )
    )
    correct = "def step_count(x):\n    return x + 1\n"
    (course_copy / "solutions/step-count.py").write_text(correct)
    (course_copy / "tests/cases/step-count/pass_as_written.py").write_text(correct)
    (course_copy / "tests/cases/step-count/pass_another_style.py").write_text("step_count = lambda x: 1 + x\n")
    done = tutor(env, "verify", "step-count", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["ok"], done.stdout


def test_a_new_course_validates_and_lists(tmp_path, env):
    course = tmp_path / "my-course"
    done = tutor(env, "new-course", str(course))
    assert done.returncode == 0, done.stderr
    assert "--course" in done.stdout  # how to use it next
    assert tutor(env, "--course", str(course), "validate").returncode == 0
    listed = json.loads(tutor(env, "--course", str(course), "list", "--json").stdout)
    assert [l["id"] for l in listed["lessons"]] == ["1"]
    assert [e["id"] for e in listed["exercises"]] == ["double"]
    assert listed["course"] == {"id": "my-course", "title": "my-course"}  # lessons/course.yaml, named for its folder
    shown = tutor(env, "--course", str(course), "list").stdout
    assert "double" in shown and "Quiz" not in shown  # no quiz: no "0/0 answered" line
    assert shown.splitlines()[0] == "my-course" and "JAX" not in shown  # its own title, not the shipped one's
    progress = tutor(env, "--course", str(course), "progress").stdout
    assert progress.splitlines()[0] == "my-course" and "Quiz" not in progress
    again = tutor(env, "new-course", str(course))
    assert again.returncode == 2 and "not an empty folder" in again.stderr
    # an exercise added to it the same way validates too
    assert tutor(env, "--course", str(course), "new-exercise", "triple", "--lesson", "1").returncode == 0
    assert tutor(env, "--course", str(course), "validate").returncode == 0


@pytest.mark.slow  # workers
def test_a_new_course_verifies_as_written(tmp_path, env):
    course = tmp_path / "my-course"
    assert tutor(env, "new-course", str(course)).returncode == 0
    done = tutor(env, "--course", str(course), "verify", "double", "--json")
    out = json.loads(done.stdout)
    assert done.returncode == 0 and out["ok"], done.stdout
    assert len(out["results"]) == 7  # solution, starter and 5 cases


# ---- --course -----------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["before", "after"])
def test_course_flag_before_or_after_the_command(tmp_path, where):
    argv = ["--course", str(tmp_path), "list"] if where == "before" else ["list", "--course", str(tmp_path)]
    assert Context(parse_args(argv)).args.course == tmp_path


def test_course_flag_wins_over_the_variable_for_one_command(tmp_path, env, monkeypatch, capsys):
    """main() with --course reads that course, and leaves the variable as it was for the next call."""
    mine = tmp_path / "mine"
    assert main(["new-course", str(mine)]) == 0
    monkeypatch.setenv(COURSE_VAR, str(ROOT))
    capsys.readouterr()
    assert main(["--home", str(tmp_path / "home"), "list", "--json", "--course", str(mine)]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [e["id"] for e in listed["exercises"]] == ["double"]
    assert os.environ[COURSE_VAR] == str(ROOT)


def test_new_exercise_leaves_the_installed_course_alone(tmp_path, monkeypatch, capsys):
    """Inside an installed wheel the course is tutor/_course: the next install replaces it."""
    import tutor.paths

    package = tmp_path / "site-packages" / "tutor"
    new_course(package / "_course")
    monkeypatch.setattr(tutor.paths, "PACKAGE_DIR", package)
    monkeypatch.setenv(COURSE_VAR, str(package / "_course"))
    assert main(["--home", str(tmp_path / "home"), "new-exercise", "triple", "--lesson", "1"]) == 2
    assert "installed package" in capsys.readouterr().err
    assert not (package / "_course/lessons/exercises/triple").exists()
