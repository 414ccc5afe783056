"""The web server of `serve`: a token on every request, one tutor process per tab, one home per seat.

Built on textual-serve's AppService (which starts a command on pipes and relays it to a browser
websocket) and its page script; the page and the routes are ours, so that no request gets past
without a seat's token (403), the page's addresses are relative (it works under a proxy's prefix),
keys reach the app without a first click, and Chinese has a font.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import shlex
import signal
import socket
import string
import sys
import urllib.parse
from functools import partial
from pathlib import Path

import textual_serve
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from tutor.i18n import LANGS, Bilingual
from tutor.serve import files
from tutor.serve.seats import TOKEN_HEADER, Seat, seat_for
from tutor.serve.texts import MSG

STATIC = Path(textual_serve.__file__).resolve().parent / "static"  # textual.js, xterm.css, Roboto Mono
FONTS = Path(__file__).resolve().parent / "fonts"  # the CJK fallback and its licence
PAGE = string.Template((Path(__file__).resolve().parent / "page.html").read_text(encoding="utf-8"))
# Many learners share one box: a tab's fork server and spare worker (~110 MB PSS together) go
# after this long with no code run, whatever screen it shows; its next run starts them again.
WORKER_IDLE_S = 300.0
ENDED_WAIT_S = 15.0  # how long a tab replaced by a newer one is given to save and close
_SEAT = "tutor.seat"  # where the guard leaves the request's seat for the handler


class TutorServer:
    """The served tutor: `web_app()` for aiohttp, `run()` to listen until a signal."""

    def __init__(
        self,
        seats: list[Seat],
        lang: str,
        accelerator: bool = False,
        python: str = sys.executable,
        browser_lang: bool = False,
        worker_idle_s: float = WORKER_IDLE_S,
        title: Bilingual | None = None,
        course: Path | None = None,
    ):
        self.seats = seats
        self.course = course  # each tab's course (--course): told on its command line
        self.title = title  # the course's own (tutor.course.model.Identity); None: the tutor's name
        self.lang = lang  # the server's: --lang, $JAXSTATE_TUTOR_LANG or its locale
        self.browser_lang = browser_lang  # True when none was said: each page's browser chooses
        self.accelerator = accelerator
        self.worker_idle_s = worker_idle_s  # a tab's JAX processes go after this long with no code run
        self.python = python
        self.downloads = DownloadManager()  # AppService's constructor needs one; the tutor delivers no files
        self._live: dict[str, tuple[web.WebSocketResponse, asyncio.Event]] = {}  # seat token -> its tab

    # ---- the routes ---------------------------------------------------------------------------

    def web_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        app.add_routes(
            [
                web.get("/", self._index),
                web.get("/ws/{token}", self._session),
                web.get("/ws/{token}/{lang}", self._session),
                web.get("/file/{name}", self._download),
                web.post("/file/{name}", self._upload),
                web.static("/static", STATIC),
                web.static("/fonts", FONTS),
            ]
        )
        app.on_shutdown.append(self._close_all)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler):
        """Every route, static files too, needs a seat's token: in the path (the websocket), the
        query (?token=) or the proxy's header. Anything else is a 403 that says what is missing."""
        # Each place is tried: behind Jupyter the query's token is Jupyter's own, the header ours.
        given = (request.match_info.get("token"), request.query.get("token"), request.headers.get(TOKEN_HEADER))
        seat = next(filter(None, (seat_for(self.seats, token) for token in given)), None)
        if seat is None:
            return web.Response(status=403, text=MSG.say("forbidden", self.lang) + "\n")
        request[_SEAT] = seat
        response = await handler(request)
        # The token is in the page's address: never hand it to another site as a Referer.
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response

    async def _index(self, request: web.Request) -> web.Response:
        seat: Seat = request[_SEAT]
        lang = self.lang_of(request)
        page = PAGE.substitute(
            lang=lang,
            title=html.escape(
                (self.title.get(lang) if self.title else MSG.say("title", lang))
                + (f" · {seat.name}" if seat.name else "")
            ),
            token_q=urllib.parse.quote(seat.token, safe=""),
            ws_js=json.dumps(f"ws/{urllib.parse.quote(seat.token, safe='')}/{lang}"),
            ended=html.escape(MSG.say("ended", lang)),
            upload_title=html.escape(MSG.say("upload_title", lang)),
            upload_go=html.escape(MSG.say("upload_go", lang)),
            upload_cancel=html.escape(MSG.say("upload_cancel", lang)),
            token_js=json.dumps(seat.token).replace("<", "\\u003c"),  # inside a <script>
            reload=html.escape(MSG.say("reload", lang)),
        )
        return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def _download(self, request: web.Request) -> web.Response:
        """The seat's workspace file, as an attachment (the page's "download" asks for it)."""
        seat: Seat = request[_SEAT]
        name = request.match_info["name"]
        try:
            data = await asyncio.to_thread(files.read, seat.home, name)
        except files.FileRefused as exc:
            return web.Response(status=exc.status, text=MSG.say(exc.key, self.lang_of(request)) + "\n")
        disposition = f'attachment; filename="{name}"'  # the name matched [a-z0-9._-]: nothing to quote
        return web.Response(
            body=data,
            content_type="text/x-python",
            charset="utf-8",
            headers={"Content-Disposition": disposition, "Cache-Control": "no-store"},
        )

    async def _upload(self, request: web.Request) -> web.Response:
        """A file from the learner's machine in place of the seat's workspace file (the body, raw)."""
        seat: Seat = request[_SEAT]
        name, lang = request.match_info["name"], self.lang_of(request)
        data = await request.content.read(files.MAX_BYTES + 1)
        try:
            backup = await asyncio.to_thread(files.replace, seat.home, name, data)
        except files.FileRefused as exc:
            return web.Response(status=exc.status, text=MSG.say(exc.key, lang) + "\n")
        shown = backup.relative_to(seat.home)  # the server's paths are not the learner's to see
        return web.Response(text=MSG.say("uploaded", lang, name=name, backup=str(shown)) + "\n")

    def lang_of(self, request: web.Request) -> str:
        """The tab's language: the server's when one was said, else the browser's first choice
        (Accept-Language; the page passes it on to its websocket), else the server's."""
        if not self.browser_lang:
            return self.lang
        if request.match_info.get("lang") in LANGS:
            return request.match_info["lang"]
        for part in request.headers.get("Accept-Language", "").split(","):
            tag = part.split(";")[0].strip().lower()
            if tag and tag != "*":
                return "zh" if tag.startswith("zh") else "en"
        return self.lang

    def command(self, seat: Seat, lang: str) -> str:
        """The shell line textual-serve runs for one tab of this seat (`exec`: no shell stays behind)."""
        words = [self.python, "-m", "tutor.serve.app", "--home", str(seat.home), "--lang", lang]
        if self.accelerator:
            words.append("--accelerator")
        if self.course is not None:
            words += ["--course", str(self.course)]
        words += ["--worker-idle-s", f"{self.worker_idle_s:g}"]
        if seat.name:  # one of a class's seats: every seat's tutor is this server's user
            words.append("--shared-seat")
        return "exec " + shlex.join(words)

    async def _session(self, request: web.Request) -> web.WebSocketResponse:
        """One tab: its own tutor process on the seat's home. A seat has one tab at a time; a newer
        one closes the older (it saves as on quit) before starting, so two apps never share a home."""
        seat: Seat = request[_SEAT]
        await self._end_tab_of(seat)
        ws = web.WebSocketResponse(heartbeat=15)
        await ws.prepare(request)
        ended = asyncio.Event()
        self._live[seat.token] = (ws, ended)
        service = AppService(
            self.command(seat, self.lang_of(request)),
            write_bytes=ws.send_bytes,
            write_str=ws.send_str,
            close=partial(_close, ws),
            download_manager=self.downloads,
        )
        try:
            await service.start(_size(request, "width", 80), _size(request, "height", 24))
            try:
                await _relay(ws, service)
            finally:
                await service.stop()
        finally:
            ended.set()
            if self._live.get(seat.token, (None,))[0] is ws:
                del self._live[seat.token]
        return ws

    async def _end_tab_of(self, seat: Seat) -> None:
        live = self._live.get(seat.token)
        if live is None:
            return
        ws, ended = live
        await ws.close(code=4001, message=b"opened in another tab")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ended.wait(), ENDED_WAIT_S)

    async def _close_all(self, app: web.Application) -> None:
        """Server stopping: every tab's app gets its quit (and saves) before the server goes."""
        live = list(self._live.values())
        for ws, _ in live:
            await ws.close(code=1001, message=b"server stopping")
        if live:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(ended.wait() for _, ended in live)), ENDED_WAIT_S)

    # ---- listening ----------------------------------------------------------------------------

    async def run(self, sock: socket.socket, ready=None) -> None:
        """Serve on an already bound socket until SIGINT or SIGTERM; `ready(port)` once listening."""
        runner = web.AppRunner(self.web_app(), handle_signals=False)
        await runner.setup()
        await web.SockSite(runner, sock).start()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        if ready is not None:
            ready(sock.getsockname()[1])
        try:
            await stop.wait()
        finally:
            await runner.cleanup()


async def _relay(ws: web.WebSocketResponse, service: AppService) -> None:
    """The browser's messages to the app, as textual.js sends them (textual-serve's own protocol)."""
    async for message in ws:
        if message.type != WSMsgType.TEXT:
            continue
        try:
            kind, *rest = json.loads(message.data)
        except (ValueError, TypeError):
            continue  # not textual.js: ignored, as textual-serve does with what it does not know
        data = rest[0] if rest else None
        if kind == "stdin" and isinstance(data, str):
            await service.send_bytes(data.encode("utf-8"))
        elif kind == "resize" and isinstance(data, dict):
            await service.set_terminal_size(_int(data.get("width"), 80), _int(data.get("height"), 24))
        elif kind == "ping":
            await ws.send_json(["pong", data])
        elif kind == "blur":
            await service.blur()
        elif kind == "focus":
            await service.focus()


async def _close(ws: web.WebSocketResponse) -> None:
    """The app said it exited: the page's websocket is closed (it shows "the tutor closed")."""
    await ws.close()


def _int(value, default: int) -> int:
    try:
        return max(1, min(int(value), 1000))
    except (TypeError, ValueError):
        return default


def _size(request: web.Request, name: str, default: int) -> int:
    return _int(request.query.get(name), default)


def bind(host: str, port: int) -> socket.socket:
    """The listening socket (port 0: any free one); OSError says why it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family)
