"""Who may open a served tutor, and whose home it opens: one token per seat, one home per seat."""

from __future__ import annotations

import hmac
import re
import secrets
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from tutor.files.atomic import read_regular, replace_atomically
from tutor.files.private import make_folder

TOKEN_HEADER = "X-Jaxstate-Tutor-Token"  # how a proxy in front (jupyter-server-proxy) hands the token over
TOKENS_DIR = ".serve-tokens"  # HOME/.serve-tokens/NAME: each learner's token, so that addresses survive a restart
OLD_TOKEN_FILE = ".serve-token"  # where a token was kept before: in the learner's own home, in reach of their checks
LEARNERS_DIR = "learners"
_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}\Z")


@dataclass(frozen=True)
class Seat:
    """One learner's way in: the token their address carries and the home their tutor uses."""

    name: str  # "" for the one learner of a plain `serve`
    token: str
    home: Path


def valid_name(name: str) -> bool:
    return bool(_NAME.match(name)) and name not in (".", "..")


def seats(home: Path, learners: list[str], token: str | None = None) -> list[Seat]:
    """No learners: one seat on `home` with a fresh token (or `token`, given: $JAXSTATE_TUTOR_SERVE_TOKEN). Learners:
    one seat each on home/learners/NAME, its token kept in the server's own home/.serve-tokens/NAME
    (made on first use), outside every learner's home: no learner's code is ever near another's key."""
    if not learners:
        return [Seat("", token or new_token(), home)]
    return [_learner_seat(home, name) for name in dict.fromkeys(learners)]


def token_path(home: Path, name: str) -> Path:
    return home / TOKENS_DIR / name


def new_token() -> str:
    return secrets.token_urlsafe(24)


def _learner_seat(home: Path, name: str) -> Seat:
    seat_home = home / LEARNERS_DIR / name
    make_folder(seat_home)
    path = token_path(home, name)
    make_folder(path.parent)
    old = seat_home / OLD_TOKEN_FILE
    token = _read_token(path)
    if not token:  # kept by an older tutor in the learner's home: moved out, so the address still works
        token = _read_token(old)
        if token:
            _write_token(path, token)
    if not token:  # none yet, or not one we wrote: a fresh one, readable by this user only
        token = new_token()
        _write_token(path, token)
    with suppress(FileNotFoundError):
        old.unlink()
    return Seat(name, token, seat_home)


def _read_token(path: Path) -> str:
    try:
        token = read_regular(path, 1024).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return token if len(token) >= 16 else ""


def _write_token(path: Path, token: str) -> None:
    replace_atomically(path, (token + "\n").encode("ascii"), path.with_name(f".{path.name}.tmp"))


def seat_for(all_seats: list[Seat], token: str | None) -> Seat | None:
    """The seat a token opens, compared in constant time; None for a missing or wrong one."""
    found = None
    given = (token or "").encode()
    for seat in all_seats:
        if hmac.compare_digest(given, seat.token.encode()) and given:
            found = seat
    return found
