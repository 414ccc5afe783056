"""Noticing outside edits of a learner's file by polling its (mtime, size): the one rule that
`jaxstate-tutor watch` and the TUI's exercise screen both follow. No Textual, no JAX."""

from __future__ import annotations

from pathlib import Path

CHANGED, DELETED = "changed", "deleted"


def stamp(path: Path) -> tuple[int, int] | None:
    """(mtime_ns, size) of the file, or None if it cannot be seen (absent, unreadable folder)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


class FileWatch:
    """One file's last seen stamp; `poll()` says what happened to it since."""

    def __init__(self, path: Path, seen_now: bool = True):
        """`seen_now=False`: the file counts as never seen, so the first poll reports it as changed."""
        self.path = Path(path)
        self.last = stamp(self.path) if seen_now else None

    def seen(self) -> None:
        """We wrote or read the file ourselves: its current state is not news."""
        self.last = stamp(self.path)

    def poll(self) -> str | None:
        """CHANGED (a new stamp), DELETED (it was there and is gone) or None (nothing new)."""
        now = stamp(self.path)
        if now == self.last:
            return None
        was, self.last = self.last, now
        if now is None:
            return DELETED if was is not None else None
        return CHANGED
