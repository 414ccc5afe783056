"""`serve`'s sessions without a browser: the page's websocket spoken as textual.js speaks it.

A learner's address opens a tutor on that learner's home; a second tab on one address closes the
first (which saves, as on quit) so two tutors never write one home; Ctrl+C on the server ends
every tutor it started.
"""

from __future__ import annotations

import asyncio
import json
import os
import time

import pytest

aiohttp = pytest.importorskip("aiohttp")
DEADLINE_S = 120


class Tab:
    """One page's websocket: keys in (["stdin", ...]), the app's bytes out."""

    def __init__(self, ws):
        self.ws = ws
        self.seen = b""
        self.close_code = None

    async def read_until(self, text: str, timeout: float = DEADLINE_S) -> None:
        async def read() -> None:
            while text.encode() not in self.seen:
                message = await self.ws.receive()
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.seen += message.data
                elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                    self.close_code = self.ws.close_code
                    raise AssertionError(f"closed ({self.ws.close_code}) before {text!r} came")

        await asyncio.wait_for(read(), timeout)

    async def closed(self, timeout: float = DEADLINE_S) -> int | None:
        async def wait() -> None:
            while not self.ws.closed:
                message = await self.ws.receive()
                if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    break

        await asyncio.wait_for(wait(), timeout)
        return self.ws.close_code

    async def keys(self, text: str) -> None:
        await self.ws.send_str(json.dumps(["stdin", text]))


def _ws_url(url: str) -> str:
    base, token = url.split("/?token=")
    return f"{base.replace('http', 'ws', 1)}/ws/{token}?width=100&height=30"


def _tutor_processes(server_pid: int) -> list[int]:
    """The tab processes the server started (`python -m tutor.serve.app`), from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat").read()
            cmd = open(f"/proc/{entry}/cmdline", "rb").read()
        except OSError:
            continue
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        if int(parent) == server_pid and state != "Z" and b"tutor.serve.app" in cmd:
            found.append(int(entry))
    return found


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the server's children from /proc")
def test_a_learners_address_opens_their_home_and_one_tab_at_a_time(serve, home):
    served = serve("--learner", "ann", "--learner", "bob")

    async def session() -> None:
        async with aiohttp.ClientSession() as client:
            first = Tab(await client.ws_connect(_ws_url(served.urls["ann"])))
            await first.read_until("Continue:")
            await first.keys("c")  # open the first lesson: where `continue` resumes is saved
            await first.read_until("Section 1 of")
            closing = asyncio.ensure_future(first.closed())  # the first page reads on, as a browser does
            second = Tab(await client.ws_connect(_ws_url(served.urls["ann"])))
            assert await closing == 4001  # the older tab is closed ...
            await second.read_until("Continue:")  # ... before the newer one's tutor starts
            # The older let go of the home (its lock) as it ended; its interpreter may still be on
            # its way out for a moment (seen under load): a ceiling, not a wait.
            deadline = time.monotonic() + 30
            while len(_tutor_processes(served.process.pid)) != 1:
                assert time.monotonic() < deadline, _tutor_processes(served.process.pid)
                await asyncio.sleep(0.1)
            await second.ws.close()

    asyncio.run(session())
    progress = json.loads((home / "learners" / "ann" / "progress.json").read_text(encoding="utf-8"))
    assert progress["position"].startswith("lesson:")
    assert not (home / "learners" / "bob" / "progress.json").exists()
    assert not (home / "progress.json").exists()  # the server's own home is no learner's


def test_stopping_the_server_ends_every_tutor_it_started(serve):
    served = serve()

    async def open_tab() -> None:
        async with aiohttp.ClientSession() as client:
            tab = Tab(await client.ws_connect(_ws_url(served.url)))
            await tab.read_until("Continue:")
            tutors = _tutor_processes(served.process.pid)
            assert len(tutors) == 1
            stopping = asyncio.ensure_future(asyncio.to_thread(served.stop))  # Ctrl+C, while the tab reads on
            assert await tab.closed() == 1001  # "going away": the server said it is stopping
            assert await stopping == 0
            deadline = time.monotonic() + 60  # a ceiling: the loop ends as soon as the tutor is gone
            while os.path.exists(f"/proc/{tutors[0]}") and "zombie" not in _state(tutors[0]):
                assert time.monotonic() < deadline, "the tab's tutor outlived the server"
                await asyncio.sleep(0.1)

    asyncio.run(open_tab())


def _state(pid: int) -> str:
    try:
        return open(f"/proc/{pid}/status").read().split("State:")[1].split("\n")[0]
    except (OSError, IndexError):
        return "zombie"


def test_a_tab_opens_in_the_language_its_page_asked_for(serve):
    served = serve(lang=None)  # no language said: the page passes its browser's on
    base, token = served.url.split("/?token=")

    async def open_tab() -> None:
        async with aiohttp.ClientSession() as client:
            tab = Tab(await client.ws_connect(f"{base.replace('http', 'ws', 1)}/ws/{token}/zh?width=100&height=30"))
            await tab.read_until("继续：")
            await tab.ws.close()

    asyncio.run(open_tab())


def test_the_doctor_is_off_in_a_served_seat_and_says_why(serve, home):
    """Issue 50: the Doctor screen ran a learner's script unfenced as the server's user, and that
    script overwrote another seat's progress.json with a forged pass. In a served seat it is off."""
    served = serve("--learner", "ann", "--learner", "bob")

    async def session() -> None:
        async with aiohttp.ClientSession() as client:
            tab = Tab(await client.ws_connect(_ws_url(served.urls["ann"])))
            await tab.read_until("Continue:")
            await tab.keys("d")
            await tab.read_until("Doctor is off")
            await tab.read_until("jaxstate-tutor doctor SCRIPT")
            assert b"Doctor: check your own script" not in tab.seen  # the screen never opened
            await tab.ws.close()

    asyncio.run(session())
    assert not (home / "learners" / "bob" / "progress.json").exists()


def test_the_doctor_stays_in_a_served_tutor_of_ones_own(serve):
    """A plain `serve` (or Jupyter's) is one person's tutor on their own account: the doctor opens."""
    served = serve()

    async def session() -> None:
        async with aiohttp.ClientSession() as client:
            tab = Tab(await client.ws_connect(_ws_url(served.url)))
            await tab.read_until("Continue:")
            await tab.keys("d")
            await tab.read_until("Doctor: check your own script")
            assert b"Doctor is off" not in tab.seen
            await tab.ws.close()

    asyncio.run(session())


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the server's children from /proc")
def test_a_tutor_whose_server_died_outright_ends_too(serve):
    """A server killed outright never tells its tabs to quit: their tutors ran on for good (seen
    spinning, orphaned, with their workers), since Textual's web driver does not end on its input's end."""
    import signal

    served = serve()

    async def open_tab() -> list[int]:
        async with aiohttp.ClientSession() as client:
            tab = Tab(await client.ws_connect(_ws_url(served.url)))
            await tab.read_until("Continue:")
            tutors = _tutor_processes(served.process.pid)
            assert len(tutors) == 1
            served.process.send_signal(signal.SIGKILL)
            served.process.wait(30)
            return tutors

    tutors = asyncio.run(open_tab())
    deadline = time.monotonic() + 90  # a ceiling: the loop ends as soon as the tutor is gone
    while os.path.exists(f"/proc/{tutors[0]}") and "zombie" not in _state(tutors[0]):
        assert time.monotonic() < deadline, "the tab's tutor outlived its server"
        time.sleep(0.2)
