"""Who may open a served tutor, and whose home it opens: one token per seat, one home per seat."""

from __future__ import annotations

import hmac
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

TOKEN_VAR = "JAXSTATE_TUTOR_SERVE_TOKEN"  # the one seat's token, given (jupyter-server-proxy sets it)
TOKEN_HEADER = "X-Jaxstate-Tutor-Token"  # how a proxy in front (jupyter-server-proxy) hands the token over
TOKEN_FILE = ".serve-token"  # a learner's token, kept in their home so that their address survives a restart
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


def seats(home: Path, learners: list[str]) -> list[Seat]:
    """No learners: one seat on `home` with a fresh token (or $JAXSTATE_TUTOR_SERVE_TOKEN). Learners:
    one seat each on home/learners/NAME, with the token kept there (made on first use)."""
    if not learners:
        return [Seat("", os.environ.get(TOKEN_VAR) or new_token(), home)]
    return [_learner_seat(home / LEARNERS_DIR / name, name) for name in dict.fromkeys(learners)]


def new_token() -> str:
    return secrets.token_urlsafe(24)


def _learner_seat(home: Path, name: str) -> Seat:
    home.mkdir(parents=True, exist_ok=True)
    path = home / TOKEN_FILE
    try:
        token = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        token = ""
    if len(token) < 16:  # none yet, or not one we wrote: a fresh one, readable by this user only
        token = new_token()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(token + "\n")
    return Seat(name, token, home)


def seat_for(all_seats: list[Seat], token: str | None) -> Seat | None:
    """The seat a token opens, compared in constant time; None for a missing or wrong one."""
    found = None
    given = (token or "").encode()
    for seat in all_seats:
        if hmac.compare_digest(given, seat.token.encode()) and given:
            found = seat
    return found
