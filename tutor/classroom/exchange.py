"""The exchange: one folder the instructor makes once, where every learner's `submit` drops an
export and `grade` collects them. The kernel keeps strangers apart, as nbgrader's inbound does.

The folder is the instructor's, mode 3773: setgid, so every submission takes the folder's group
(the instructor's); sticky, so nobody but the owner of a file (and the folder's) can delete or
rename it; `o=wx`, so a learner can create a file and open one they know the name of, but cannot
list the folder. A submission is written 0640: its learner and the instructor's group read it,
nobody else does. nbgrader's inbound is 2733 with submissions 0644 hidden behind a random name;
here the random name stays, and the file's mode holds too.

Who handed a file in is the kernel's record, the file's owner, never a name in or on the file:
a learner can only create files as themselves. When the export was handed in is its ctime, which
no one but root can set back (mtime and every date inside the file are the learner's to write).
A learner's later submissions replace their earlier ones (nbgrader's collect keeps the latest).
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tutor.errors import TutorError, worded

try:  # Unix only; imported here, not at first use, so a process that has since changed account
    import grp  # (or lost sight of Python's own folders) still has them
    import pwd
except ImportError:  # Windows
    grp = pwd = None  # type: ignore[assignment]

MARKER = ".jaxstate-tutor-exchange"  # written by `exchange init`: how `grade DIR` knows one
DIR_MODE = stat.S_ISGID | stat.S_ISVTX | 0o773
FILE_MODE = 0o640
SUFFIX = ".json"


class ExchangeError(TutorError):
    """The exchange cannot be used as asked: `key` and `fields` word it (tutor.classroom.texts)."""

    def __init__(self, key: str, **fields: object):
        from tutor.classroom.texts import MSG

        super().__init__(worded(MSG, key, fields))
        self.key = key
        self.fields = fields


def account_name() -> str:
    """Who is handing in: JupyterHub's name for the account where a hub started this server,
    else the Unix account's (the password database, not $USER, which is anyone's to set)."""
    hub = os.environ.get("JUPYTERHUB_USER", "").strip()
    if hub:
        return hub
    try:
        if pwd is None:
            raise KeyError("no password database")
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:  # Windows; a uid with no entry (a container)
        import getpass

        try:
            return getpass.getuser()
        except (KeyError, OSError):
            return "learner"


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "learner"


def _owner_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name if pwd is not None else f"uid {uid}"
    except KeyError:
        return f"uid {uid}"


def _others_in_group(gid: int, owner: int) -> list[str]:
    """Accounts other than `owner` that are in group `gid` (as primary or supplementary group):
    they could list and read every submission."""
    names = {p.pw_name for p in pwd.getpwall() if p.pw_gid == gid and p.pw_uid != owner}
    try:
        names |= set(grp.getgrgid(gid).gr_mem)
    except KeyError:
        pass
    names.discard(_owner_name(owner))
    return sorted(names)


def init(folder: Path, group: str | None = None) -> Path:
    """Make `folder` an exchange (or make an existing one right again), owned by the caller and
    `group` (default: the caller's primary group). A group with other members is refused: they
    would read every learner's submission."""
    if os.name != "posix" or grp is None or pwd is None:
        raise ExchangeError("exchange_not_posix")
    folder = folder.expanduser().absolute()
    try:
        gid = grp.getgrnam(group).gr_gid if group else os.getgid()
    except KeyError:
        raise ExchangeError("exchange_no_group", group=group) from None
    others = _others_in_group(gid, os.getuid())
    if others:
        name = group or grp.getgrgid(gid).gr_name
        raise ExchangeError("exchange_group_shared", group=name, who=", ".join(others[:8]))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if folder.is_symlink() or not folder.is_dir():
            raise ExchangeError("exchange_not_dir", path=folder)
        os.chown(folder, -1, gid)
        os.chmod(folder, DIR_MODE)
        marker = folder / MARKER
        if not marker.exists():
            fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            os.write(fd, b"A jaxstate-tutor exchange: `jaxstate-tutor submit` writes here, `grade` reads.\n")
            os.close(fd)
        os.chmod(marker, 0o644)
    except OSError as exc:
        raise ExchangeError("exchange_cannot", path=folder, why=exc.strerror or str(exc)) from None
    return folder


def is_exchange(folder: Path) -> bool:
    return (folder / MARKER).is_file()


def _check_for_submit(folder: Path) -> None:
    """Refuse a folder that would not keep the learner's file private: listable by others, or one
    where others could delete it. What the learner is told names the fix (the instructor's)."""
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        raise ExchangeError("exchange_missing", path=folder) from None
    except OSError as exc:
        raise ExchangeError("exchange_cannot", path=folder, why=exc.strerror or str(exc)) from None
    if not stat.S_ISDIR(st.st_mode):
        raise ExchangeError("exchange_not_dir", path=folder)
    if os.name != "posix":
        return
    if st.st_uid != os.getuid():  # the instructor's own submission (a test run) is theirs to make
        mode = stat.S_IMODE(st.st_mode)
        if mode & stat.S_IROTH or not mode & stat.S_ISVTX:
            raise ExchangeError("exchange_open", path=folder, mode=f"{mode:04o}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ExchangeError("exchange_cannot", path=folder, why="no permission to write in it")


def submit(folder: Path, data: bytes, name: str, now: datetime | None = None) -> Path:
    """Write one submission into the exchange, never over another file, and return its path:
    NAME+TIME+RANDOM.json, mode 0640 (the learner and the instructor's group)."""
    folder = folder.expanduser().absolute()
    _check_for_submit(folder)
    when = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    final = folder / f"{_safe(name)}+{when}+{secrets.token_urlsafe(6)}{SUFFIX}"
    tmp = folder / f".{final.name}.tmp"  # hidden: `grade` skips it, so a half-written file is never read
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if os.name == "posix":
                os.fchmod(fd, FILE_MODE)  # whatever the umask: the instructor's group must read it
            os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(tmp, final)  # the random part makes the name new; the sticky bit keeps others' files
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise ExchangeError("exchange_cannot", path=folder, why=exc.strerror or str(exc)) from None
    return final


@dataclass
class Submission:
    """One learner's hand-in as `grade` takes it: the latest file they own in the exchange."""

    path: Path
    account: str  # the file's owner
    submitted_at: str  # its ctime, UTC, ISO 8601
    earlier: list[Path] = field(default_factory=list)  # their older submissions, not graded


@dataclass
class Collected:
    submissions: list[Submission]
    refused: list[tuple[Path, str, dict[str, Any]]]  # (path, texts key, fields): files not taken, and why


def collect(folder: Path, owner_name: Callable[[int], str] = _owner_name) -> Collected:
    """Every account's latest submission in the exchange. A file that is not a plain file, or
    that has another name elsewhere (a hard link: its owner is not who put it here), is refused."""
    latest: dict[int, list[tuple[int, str, Path]]] = {}
    refused: list[tuple[Path, str, dict[str, Any]]] = []
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        raise ExchangeError("exchange_cannot", path=folder, why=exc.strerror or str(exc)) from None
    for entry in entries:
        if entry.name.startswith("."):
            continue
        path = Path(entry.path)
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError as exc:
            refused.append((path, "exchange_refused", {"why": exc.strerror or str(exc)}))
            continue
        if not stat.S_ISREG(st.st_mode):
            what = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a plain file"
            refused.append((path, "exchange_refused", {"why": what}))
            continue
        if st.st_nlink > 1:
            refused.append((path, "exchange_refused", {"why": f"it has {st.st_nlink} names (a hard link)"}))
            continue
        when = datetime.fromtimestamp(st.st_ctime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        latest.setdefault(st.st_uid, []).append((st.st_ctime_ns, when, path))
    submissions = []
    for uid, files in latest.items():
        files.sort()
        _, when, path = files[-1]
        submissions.append(Submission(path, owner_name(uid), when, [p for _, _, p in files[:-1]]))
    submissions.sort(key=lambda s: (s.account, s.path.name))
    return Collected(submissions, refused)
