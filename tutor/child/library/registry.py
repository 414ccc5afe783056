"""Declaring a check (`@check`) and what it takes from the learner's file (`learner_attr`,
`is_defined`). `tutor/course/checks_source.py` reads the same declaration from the source."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from tutor.child.library.failures import expect, fail


class CheckDef(NamedTuple):
    """What `@check` says about a check function (the loader reads the same from the source)."""

    id: str
    depends: tuple[str, ...]
    plots: bool


def check(check_id: str, *, depends: tuple[str, ...] | list[str] = (), plots: bool = False):
    """Declare a check of an exercise: `@check("counts-up", depends=["defines"])` on a function
    whose parameters name what it needs from the learner's file (`learner` is the module itself).
    It passes when it returns; it fails when a helper raises CheckFailed or the learner's code
    raises. `depends`: skipped unless these earlier checks passed; `plots`: it streams `metric`
    points (the exercise's chart). Its name and advice are prose, in exercise.yaml."""

    def register(fn: Callable) -> Callable:
        fn.__check__ = CheckDef(check_id, tuple(depends), plots)  # type: ignore[attr-defined]
        return fn

    return register


def is_defined(**named: Any) -> None:
    """Each value (a name from the learner's file) is a function or a class."""
    for name, value in named.items():
        expect(
            callable(value),
            f"`{name}` should be a function or class, got {type(value).__name__}",
            f"`{name}` 应当是函数或类，实际是 {type(value).__name__}",
        )


def learner_attr(module: Any, name: str) -> Any:
    """A name the learner's file must define."""
    if not hasattr(module, name):
        fail(f"your file does not define `{name}`", f"你的文件里没有定义 `{name}`")
    return getattr(module, name)
