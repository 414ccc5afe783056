"""The hidden entry textual-serve runs for each browser tab: `python -m tutor.serve.app --home H --lang L`.

`jaxstate-tutor` itself refuses without a terminal; under textual-serve the app talks over pipes
through Textual's web driver (TEXTUAL_DRIVER, set by textual-serve), so this entry runs it there
and nowhere else. It imports neither aiohttp nor textual-serve: each tab's process stays the TUI's size.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from tutor import host
from tutor.files.private import make_folder, open_private
from tutor.i18n import LANGS
from tutor.serve.texts import MSG

WEB_DRIVER = "textual.drivers.web_driver:WebDriver"  # what textual-serve puts in TEXTUAL_DRIVER
LOCK_FILE = ".serve-lock"
LOCK_WAIT_S = 30.0


def under_web_driver() -> bool:
    return os.environ.get("TEXTUAL_DRIVER", "") == WEB_DRIVER


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tutor.serve.app")
    p.add_argument("--home", type=Path, required=True)
    p.add_argument("--lang", choices=LANGS, default="en")
    p.add_argument("--accelerator", action="store_true")
    p.add_argument("--course", type=Path, default=None)  # the server's course (default: tutor.settings')
    p.add_argument("--worker-idle-s", type=float, default=None)
    p.add_argument("--shared-seat", action="store_true")  # a seat of `serve --learner`: see tutor.ui.session
    args = p.parse_args(argv)
    if not under_web_driver():
        print(MSG.say("not_web", args.lang), file=sys.stderr)
        return 2
    from tutor.ui.app import run_app

    _end_with_the_server()
    with home_lock(args.home):
        return run_app(
            home=args.home,
            lang=args.lang,
            accelerator=args.accelerator,
            course_root=args.course,
            worker_idle_s=args.worker_idle_s,
            shared_seat=args.shared_seat,
        )


def _end_with_the_server(every_s: float = 1.0) -> None:
    """A server that dies outright (killed, or out of memory) never tells its tabs to quit, and
    Textual's web driver does not end on its input's end: such tutors ran on for good, holding
    their workers. When the parent changes, this one ends the ordinary way (SIGTERM: it saves)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every_s)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(LOCK_WAIT_S)  # one stuck on its dead pipes (seen spinning) goes anyway: nobody is left to see it
        os._exit(128 + signal.SIGTERM)

    threading.Thread(target=watch, name="server-lifeline", daemon=True).start()


@contextlib.contextmanager
def home_lock(home: Path) -> Iterator[None]:
    """One served tutor on a home at a time. The server closes a seat's older tab before it starts
    the newer, but that tutor may still be saving and closing its workers after its page is gone:
    the newer waits here until it has exited (the lock goes with its process), LOCK_WAIT_S at most."""
    make_folder(home)
    fd = open_private(home / LOCK_FILE, os.O_RDWR)  # not inherited by workers (exec)
    try:
        deadline = time.monotonic() + LOCK_WAIT_S
        # host.try_lock is True where the host has no locks (the server's one tab per seat is all there is)
        while not host.try_lock(fd) and time.monotonic() < deadline:
            time.sleep(0.1)  # past the deadline: a tutor stuck on its way out must not lock the learner out for good
        yield
    finally:
        os.close(fd)


if __name__ == "__main__":
    raise SystemExit(main())
