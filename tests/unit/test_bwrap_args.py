"""What `grade`'s bubblewrap wall is told (tutor.sandbox.bwrap): the argv and the environment, read
without running it (tests/cli/test_grade_isolation.py runs it for real)."""

from __future__ import annotations

from pathlib import Path

from tutor.sandbox.bwrap import Bwrap, keep_env


def _binds(args: list[str], flag: str) -> list[str]:
    return [args[i + 2] for i, a in enumerate(args) if a == flag]


def test_a_wheels_shipped_solutions_are_covered_though_the_package_is_bound(tmp_path):
    """Installed from a wheel the course lives inside the package (tutor/_course): binding the
    package shows its solutions/, so an empty tmpfs goes over them."""
    site = tmp_path / "site-packages"
    solutions = site / "tutor" / "_course" / "solutions"
    solutions.mkdir(parents=True)
    (site / "tutor" / "_course" / "lessons").mkdir()
    wall = Bwrap(
        "/usr/bin/bwrap",
        lessons=(str(site / "tutor" / "_course" / "lessons"),),
        hidden=(str(solutions), str(tmp_path / "elsewhere")),
        read_only=(str(site),),
    )
    args = wall.prefix(str(tmp_path / "run"))
    assert str(site) in _binds(args, "--ro-bind")
    tmpfs = [args[i + 1] for i, a in enumerate(args) if a == "--tmpfs"]
    assert str(solutions) in tmpfs
    assert str(tmp_path / "elsewhere") not in tmpfs  # not beneath anything bound: simply absent
    # the run folder is the one writable bind, last, and the worker starts in it
    assert _binds(args, "--bind") == [str(tmp_path / "run")]
    assert args[-3:] == ["--chdir", str(tmp_path / "run"), "--"]
    for ns in ("--unshare-all", "--die-with-parent", "--new-session"):
        assert ns in args
    assert args[args.index("--cap-drop") + 1] == "ALL"


def test_an_export_file_beneath_a_bound_folder_is_covered_by_an_empty_file(tmp_path):
    kept = tmp_path / "env" / "alice.json"
    kept.parent.mkdir()
    kept.write_text("{}")
    args = Bwrap("/usr/bin/bwrap", hidden=(str(kept),), read_only=(str(kept.parent),)).prefix(str(tmp_path / "run"))
    i = args.index(str(kept))
    assert args[i - 2 : i] == ["--ro-bind", "/dev/null"]


def test_the_wrapped_environment_is_an_allow_list():
    env = {
        "PATH": "/usr/bin",
        "PYTHONPATH": "/x",
        "JAX_PLATFORMS": "cpu",
        "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false",
        "TMPDIR": "/tmp/run/tmp",
        "LC_ALL": "C.UTF-8",
        "GITHUB_TOKEN": "ghp_secret",
        "AWS_SECRET_ACCESS_KEY": "k",
        "SSH_AUTH_SOCK": "/run/user/0/ssh",
        "JAXSTATE_TUTOR_HOME": "/home/inst/.tutor",
    }
    kept = keep_env(env)
    assert set(kept) == {"PATH", "PYTHONPATH", "JAX_PLATFORMS", "XLA_FLAGS", "TMPDIR", "LC_ALL"}
    assert Path(kept["TMPDIR"]) == Path("/tmp/run/tmp")
