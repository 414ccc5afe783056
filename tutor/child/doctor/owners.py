"""Whose a finding is: the learner's, or a library's they called. A key that numpyro's
`MCMC.run` consumes twice while it finds initial parameters is reused inside numpyro, on one
call of the learner's (`mcmc.run(key, ...)` once): the learner did hand the key on, once, and
has nothing to change at that line. Such a finding says where inside the library it happens,
at the learner's line that called in, and comes after the learner's own findings.

A library is installed code (site-packages) other than JAX, NumPy and the tutor itself: what the
learner imports (numpyro, optax, equinox, flax). One call into a library is the frame the
learner's outermost frame called into (`MCMC.run`), told apart from the next call by identity
(the last one is held, so that a new frame is never mistaken for it)."""

from __future__ import annotations

import types
from collections.abc import Callable

_PACKAGES_DIRS = ("site-packages", "dist-packages")
NOT_LIBRARIES = frozenset({"jax", "jaxlib", "numpy", "tutor", "ml_dtypes", "opt_einsum", "scipy"})
MAX_FRAMES = 48  # library frames kept for one use (outermost first)

Frames = tuple[tuple[int, str, int], ...]  # (frame id, the library's path, line), outermost first


def library_path(filename: str) -> str | None:
    """`numpyro/infer/util.py` for a file of an installed library (not JAX, NumPy or the tutor),
    else None."""
    parts = filename.replace("\\", "/").split("/")
    for i in range(len(parts) - 1, -1, -1):
        if parts[i] in _PACKAGES_DIRS and i + 1 < len(parts):
            rest = parts[i + 1 :]
            return None if rest[0].split(".")[0] in NOT_LIBRARIES else "/".join(rest)
    return None


class Calls:
    """Numbers each call the learner makes into a library, and the library's frames under it."""

    def __init__(self, owns: Callable[[str], bool]):
        self.owns = owns
        self._last: types.FrameType | None = None  # held: a new call's frame is never this one
        self._number = 0
        self._paths: dict[str, str | None] = {}

    def _library(self, filename: str) -> str | None:
        known = self._paths.get(filename, "")
        if known == "":
            known = self._paths[filename] = library_path(filename)
        return known

    def entered(self, frame: types.FrameType | None) -> tuple[int, Frames] | None:
        """For a key consumed with `frame` (not the learner's) on the stack: the number of the
        learner's call into a library that led there, and the library's frames, or None when no
        library stands between the learner and the consumer."""
        if frame is None or self.owns(frame.f_code.co_filename):
            return None
        frames: list[tuple[int, str, int]] = []
        entry = None
        callee: types.FrameType | None = None  # the frame the one being looked at called
        while frame is not None:
            filename = frame.f_code.co_filename
            if self.owns(filename):
                if callee is not None and not self.owns(callee.f_code.co_filename):
                    entry = callee  # what the outermost learner frame so far called into
            else:
                path = self._library(filename)
                if path is not None:
                    frames.append((id(frame), path, frame.f_lineno))
            callee, frame = frame, frame.f_back
        if entry is None or not frames or self._library(entry.f_code.co_filename) is None:
            return None
        if entry is not self._last:
            self._last = entry
            self._number += 1
        return self._number, tuple(reversed(frames[-MAX_FRAMES:]))


def where_inside(first: Frames, again: Frames) -> str:
    """Where inside the library a reuse happens: the deepest library frame the two uses share
    (the library's code that went on to consume the key again), at its line then."""
    shared = 0
    for a, b in zip(first, again):
        if a[:2] != b[:2]:
            break
        shared += 1
    frame = again[shared - 1] if shared else again[0]
    return f"{frame[1]}:{frame[2]}"
