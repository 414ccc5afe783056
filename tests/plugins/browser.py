"""A real browser: headless Chromium driven through the DevTools protocol (CDP), for `serve`.

Keys go in as the browser's own key events (into the page's terminal, as a learner's keyboard
would); the screen is read by replaying, in a terminal emulator (pyte), the bytes the page's
websocket received from the tutor: what xterm.js in the page drew from. Skipped where Chromium,
pyte or aiohttp is missing (`apt-get install chromium`; pip: the test extra).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

CHROMIUMS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
START_S = 120.0  # a ceiling for a loaded machine (seen: no address within 30 s at load 60), not a speed

# What Chromium needs to type a named key: (key, code, Windows virtual key code, text it types).
KEYS = {
    "Enter": ("Enter", "Enter", 13, "\r"),
    "Escape": ("Escape", "Escape", 27, ""),
    "Tab": ("Tab", "Tab", 9, ""),
    "Backspace": ("Backspace", "Backspace", 8, ""),
    "Up": ("ArrowUp", "ArrowUp", 38, ""),
    "Down": ("ArrowDown", "ArrowDown", 40, ""),
    "Left": ("ArrowLeft", "ArrowLeft", 37, ""),
    "Right": ("ArrowRight", "ArrowRight", 39, ""),
    "Home": ("Home", "Home", 36, ""),
    "End": ("End", "End", 35, ""),
    **{f"F{n}": (f"F{n}", f"F{n}", 111 + n, "") for n in range(1, 13)},
}
CTRL = 2  # CDP's modifier bit for Control
SETTLE_S = 2.0  # the page's terminal size is taken as settled once no new one came for this long
FONTS_LOADED = """document.fonts.load('16px "Roboto Mono"', "Aa\\u4e2d\\u6587").then(() => true, () => false)"""


def chromium_path() -> str | None:
    for name in CHROMIUMS:
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    """One headless Chromium with one page; every call waits for its answer (or raises on a deadline)."""

    def __init__(self, executable: str, profile: Path, env: dict | None = None):
        import pyte

        self._pyte = pyte
        profile.mkdir(parents=True, exist_ok=True)
        port_file = profile / "DevToolsActivePort"
        port_file.unlink(missing_ok=True)  # a profile used before: its port is not this browser's
        args = [
            executable,
            "--headless=new",
            f"--user-data-dir={profile}",
            "--remote-debugging-port=0",
            "--window-size=1280,800",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-extensions",
            "about:blank",
        ]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium's own sandbox refuses root (CI runs as root)
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        deadline = time.monotonic() + START_S
        while not port_file.exists() or len(port_file.read_text().splitlines()) < 2:
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError(f"Chromium did not start (exit {self.process.returncode})")
            time.sleep(0.05)
        self.port = int(port_file.read_text().split()[0])
        self.screen = pyte.Screen(80, 24)
        self._stream = pyte.ByteStream(self.screen)
        self._lock = threading.Lock()
        self.frames_in = 0
        self._resized_at = 0.0  # when the page last said its terminal's size
        self.closed_by_server = False
        self.sent: list[str] = []  # the text frames the page sent (stdin, resize, ...)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._next_id = 0
        self._pending: dict[int, asyncio.Future] = {}
        try:
            self._run(self._connect())
        except BaseException:
            self.close()
            raise

    # ---- the protocol, on the loop's thread ------------------------------------------------------

    def _run(self, coro, timeout: float = 60.0):
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    async def _connect(self) -> None:
        import aiohttp

        self._session = aiohttp.ClientSession()
        async with self._session.get(f"http://127.0.0.1:{self.port}/json/list") as r:
            targets = await r.json()
        page = next(t for t in targets if t.get("type") == "page")
        self._ws = await self._session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for message in self._ws:
            data = json.loads(message.data)
            if "id" in data:
                future = self._pending.pop(data["id"], None)
                if future is not None and not future.done():
                    future.set_result(data)
            else:
                self._event(data.get("method", ""), data.get("params", {}))

    def _event(self, method: str, params: dict) -> None:
        if method == "Network.webSocketCreated":
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(params.get("url", "")).query)
            if "width" in query and "height" in query:
                with self._lock:
                    self.screen.resize(int(query["height"][0]), int(query["width"][0]))
                self._resized_at = time.monotonic()
        elif method == "Network.webSocketFrameReceived":
            frame = params["response"]
            if frame.get("opcode") == 2:  # binary: the app's terminal output
                with self._lock:
                    self._stream.feed(base64.b64decode(frame["payloadData"]))
                    self.frames_in += 1
        elif method == "Network.webSocketFrameSent":
            text = params["response"].get("payloadData", "")
            self.sent.append(text)
            try:
                kind, *rest = json.loads(text)
            except (ValueError, TypeError):
                return
            if kind == "resize" and rest:
                with self._lock:
                    self.screen.resize(int(rest[0]["height"]), int(rest[0]["width"]))
                self._resized_at = time.monotonic()
        elif method == "Network.webSocketClosed":
            self.closed_by_server = True

    async def _call(self, method: str, params: dict) -> dict:
        self._next_id += 1
        future = self._loop.create_future()
        self._pending[self._next_id] = future
        await self._ws.send_str(json.dumps({"id": self._next_id, "method": method, "params": params}))
        answer = await future
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def call(self, method: str, **params) -> dict:
        return self._run(self._call(method, params))

    # ---- what a test uses --------------------------------------------------------------------------

    def open(self, url: str) -> None:
        self.call("Network.enable")
        self.call("Page.enable")
        self.call("Page.navigate", url=url)

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return result.get("result", {}).get("value")

    def fit(self, columns: int = 80, rows: int = 24, timeout: float = 120.0) -> None:
        """Make the page's window the size of a `columns` x `rows` terminal (a small laptop window):
        once the page's size has settled, its cells are measured and the window set to hold that
        many, no more (measured while a resize is under way, a cell came out half its width)."""
        measure = (
            "(() => { const r = document.querySelector('.xterm-screen').getBoundingClientRect();"
            " return [r.width, r.height]; })()"
        )
        # The page's fonts first (Latin and CJK): the page waits 3 s for them at most, and a cell
        # measured in a fallback font that a late web font then replaced left a page of 45 columns.
        self.evaluate(FONTS_LOADED)
        deadline = time.monotonic() + timeout
        while True:
            while time.monotonic() - self._resized_at < SETTLE_S:  # no new size for a while
                time.sleep(0.1)
            with self._lock:
                now = (self.screen.columns, self.screen.lines)
            if now == (columns, rows):
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"the page's terminal stayed {now[0]}x{now[1]}, not {columns}x{rows}")
            drawn_w, drawn_h = self.evaluate(measure)
            cell_w, cell_h = drawn_w / now[0], drawn_h / now[1]
            width, height = int(columns * cell_w + cell_w / 2) + 4, int(rows * cell_h + cell_h / 2) + 4
            self.call(
                "Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False
            )
            self._resized_at = time.monotonic()
            time.sleep(0.5)

    def screenshot(self, path: Path) -> Path:
        """The page as the learner sees it, as a PNG at `path` (for a person to look at)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"]))
        return path

    def text(self) -> str:
        """The terminal's screen as lines of text."""
        # pyte's own `display` asserts on a wide character's stub left behind when a narrow one
        # overwrote half of it (seen in CI); an empty cell is such a stub, and takes no room
        with self._lock:
            lines = self.screen.buffer
            rows = ["".join(lines[y][x].data for x in range(self.screen.columns)) for y in range(self.screen.lines)]
        return "\n".join(row.rstrip() for row in rows)

    def colours(self, wanted) -> set[str]:
        """The foreground colours (pyte's names or hex) of the cells whose character `wanted` accepts."""
        with self._lock:
            rows = [self.screen.buffer[y] for y in range(self.screen.lines)]
            return {row[x].fg for row in rows for x in range(self.screen.columns) if wanted(row[x].data)}

    def highlighted(self) -> list[str]:
        """The rows drawn on a background of their own (a list's highlighted row): the rows whose
        first character that is not a space has a background no other such row has."""
        with self._lock:
            rows = []
            for y in range(self.screen.lines):
                line = self.screen.buffer[y]
                x = next((x for x in range(self.screen.columns) if line[x].data.strip()), None)
                rows.append(
                    (line[x].bg if x is not None else None, "".join(line[i].data for i in range(self.screen.columns)))
                )
        counts: dict = {}
        for bg, _ in rows:
            counts[bg] = counts.get(bg, 0) + 1
        return [text.rstrip() for bg, text in rows if bg is not None and counts[bg] == 1]

    def wait_for(self, *texts: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            shown = self.text()
            if any(t in shown for t in texts):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"none of {texts!r} on the page's screen within {timeout} s:\n{shown}")
            time.sleep(0.1)

    def key(self, name: str, ctrl: bool = False) -> None:
        """A named key (Enter, F5, ...) or one character; ctrl=True holds Control."""
        if name in KEYS:
            key, code, vk, text = KEYS[name]
        else:
            code = f"Key{name.upper()}" if name.isalpha() else f"Digit{name}" if name.isdigit() else ""
            key, vk, text = name, ord(name.upper()), name
        modifiers = CTRL if ctrl else 0
        down = {"type": "keyDown" if text and not ctrl else "rawKeyDown", "key": key, "code": code}
        down |= {"windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk, "modifiers": modifiers}
        if text and not ctrl:
            down["text"] = text
        self.call("Input.dispatchKeyEvent", **down)
        self.call(
            "Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=vk, modifiers=modifiers
        )

    def type(self, text: str) -> None:
        for ch in text:
            self.key(ch)

    def close(self) -> None:
        loop = getattr(self, "_loop", None)
        if loop is not None and loop.is_running():

            async def shut() -> None:
                if hasattr(self, "_ws"):
                    await self._ws.close()
                if hasattr(self, "_session"):
                    await self._session.close()

            try:
                self._run(shut(), timeout=10)
            except Exception:  # noqa: BLE001 - closing a browser that already went
                pass
            loop.call_soon_threadsafe(loop.stop)
            self._thread.join(10)
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _chromium_or_skip() -> str:
    executable = chromium_path()
    if executable is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    for module in ("pyte", "aiohttp"):
        try:
            __import__(module)
        except ImportError:
            pytest.skip(f"{module} is not installed (pip install -e '.[test]')")
    return executable


@pytest.fixture
def chromium(tmp_path):
    """Headless Chromium with one page, through CDP; skipped (with the reason) where it cannot run."""
    browser = Browser(_chromium_or_skip(), tmp_path / "chromium-profile")
    yield browser
    browser.close()


@pytest.fixture
def chromium_without_fonts(tmp_path):
    """The same, on a machine with no fonts of its own (fontconfig pointed at an empty list): what a
    page's web fonts alone draw."""
    executable = _chromium_or_skip()
    config = tmp_path / "no-fonts.conf"
    config.write_text('<?xml version="1.0"?>\n<fontconfig></fontconfig>\n', encoding="utf-8")
    env = dict(os.environ, FONTCONFIG_FILE=str(config))
    browser = Browser(executable, tmp_path / "chromium-profile-no-fonts", env=env)
    yield browser
    browser.close()


class Served:
    """`jaxstate-tutor serve` as a subprocess on a free port; `urls` maps a seat's name to its address."""

    def __init__(self, env: dict, home: Path, *words: str, lang: str | None = "en", no_color: bool = False):
        self.home = home
        said = ["--lang", lang] if lang else []
        env.pop("NO_COLOR", None)  # the server's environment is each tab's tutor's
        if no_color:
            env["NO_COLOR"] = "1"
        if not lang:
            env.pop("JAXSTATE_TUTOR_LANG", None)  # none said: each tab takes its browser's
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tutor", "--home", str(home), *said, "serve", "--port", "0", *words],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        self.output: list[str] = []
        self.urls: dict[str, str] = {}
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._drain, daemon=True).start()
        deadline = time.monotonic() + START_S
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:  # ended, or silent past the deadline
                break
            name, sep, url = line.strip().partition("http://")
            if sep:  # "  ann: http://..." (zh: "ann：http://...")
                self.urls[name.rstrip(":： ")] = "http://" + url
            if "Ctrl+C" in line:
                break
        if not self.urls:
            self.stop()
            raise AssertionError("serve printed no address:\n" + "".join(self.output))

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.output.append(line)
            self._lines.put(line)
        self._lines.put(None)

    @property
    def url(self) -> str:
        return next(iter(self.urls.values()))

    def base(self) -> str:
        return self.url.split("/?token=")[0]

    def stop(self) -> int:
        """Ctrl+C, as a person would stop it: every open tutor saves and quits first."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


@pytest.fixture
def serve(home, cli_env):
    """serve(*words, lang="en", no_color=False): `jaxstate-tutor --lang LANG serve --port 0 *words` on
    `home` (lang=None: no language said; no_color: NO_COLOR set for it), stopped after the test."""
    pytest.importorskip("textual_serve", reason="textual-serve is not installed (pip install -e '.[serve]')")
    started: list[Served] = []

    def start(*words: str, lang: str | None = "en", no_color: bool = False) -> Served:
        # What a test put in the home is made private, as the tutor makes its own: a home open to
        # others gets a 15 s notice as the tutor opens, drawn over the page's right side (rnn's
        # chart under CI's load, where the pass came within those 15 s).
        for path in [home, *home.rglob("*")] if home.is_dir() else []:
            path.chmod(0o700 if path.is_dir() else 0o600)
        served = Served(cli_env(home), home, *words, lang=lang, no_color=no_color)
        started.append(served)
        return served

    yield start
    for served in started:
        served.stop()
