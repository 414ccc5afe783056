"""What the sandbox reads of the course's exercises and cells, as Protocols: tutor.course imports
the sandbox (verify), so the sandbox may not import it back; tutor.course.model's Exercise and
Cell are what satisfy these."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from tutor.protocol import CheckSpec, Expect


class CheckToRun(Protocol):
    @property
    def plots(self) -> bool: ...

    def to_job(self, checks_file: Path | None) -> CheckSpec: ...


class ExerciseToRun(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def checks(self) -> Sequence[CheckToRun]: ...
    @property
    def checks_file(self) -> Path | None: ...
    @property
    def timeout(self) -> float: ...


class CellToRun(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def code(self) -> str: ...
    @property
    def expect(self) -> Expect: ...
    @property
    def timeout(self) -> float: ...
    @property
    def cpu_devices(self) -> int: ...
