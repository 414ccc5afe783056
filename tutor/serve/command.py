"""`jaxstate-tutor serve`'s body: check the words, bind the port, say the addresses, serve until a signal."""

from __future__ import annotations

import asyncio
import socket
import sys
from pathlib import Path

from tutor.serve.seats import Seat, seats, valid_name
from tutor.serve.texts import MSG

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def serve(
    home: Path,
    learners: list[str],
    host: str,
    port: int,
    lang: str,
    accelerator: bool = False,
    browser_lang: bool = False,
    worker_idle_s: float | None = None,
    title=None,
    course: Path | None = None,
    token: str | None = None,
) -> int:
    """Exit 0 after a signal stops it; 2 for a bad learner name, a missing textual-serve or a taken port.
    browser_lang: no language was said, so each tab takes its browser's (Accept-Language)."""
    for name in learners:
        if not valid_name(name):
            print(MSG.say("bad_learner", lang, name=name), file=sys.stderr)
            return 2
    try:
        from tutor.serve.server import WORKER_IDLE_S, TutorServer, bind
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in ("textual_serve", "aiohttp"):
            raise  # a bug in the tutor: shown as the bug it is
        print(MSG.say("no_textual_serve", lang), file=sys.stderr)
        return 2
    try:
        sock = bind(host, port)
    except OSError as exc:
        print(MSG.say("port_taken", lang, host=host, port=port, why=exc.strerror or exc), file=sys.stderr)
        return 2
    all_seats = seats(home, learners, token)
    server = TutorServer(
        all_seats,
        lang,
        accelerator=accelerator,
        browser_lang=browser_lang,
        worker_idle_s=WORKER_IDLE_S if worker_idle_s is None else worker_idle_s,
        title=title,
        course=course,
    )
    asyncio.run(server.run(sock, ready=lambda bound: _say_where(all_seats, host, bound, lang)))
    return 0


def address(host: str, port: int, seat: Seat) -> str:
    shown = socket.gethostname() if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/?token={seat.token}"


def _say_where(all_seats: list[Seat], host: str, port: int, lang: str) -> None:
    lines = [MSG.say("serving", lang)]
    for seat in all_seats:
        lines.append(MSG.say("seat", lang, name=seat.name or MSG.say("you", lang), url=address(host, port, seat)))
        lines.append(MSG.say("seat_home", lang, home=str(seat.home)))
    if host in LOOPBACK:
        lines.append(MSG.say("tunnel", lang, port=port))
    else:
        lines.append(MSG.say("plain_http", lang, host=host))
    lines.append(MSG.say("stop", lang))
    print("\n".join(lines), flush=True)
