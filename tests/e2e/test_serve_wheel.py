"""`serve` from the built wheel, run from outside the checkout: its page, its font and its app entry
are in the wheel, the door holds, a tab's tutor starts, and Jupyter can find it."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import urllib.error
import urllib.request
import zipfile

import pytest


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_serve_from_the_wheel(installed_wheel, tmp_path):
    aiohttp = pytest.importorskip("aiohttp")
    pytest.importorskip("textual_serve", reason="textual-serve is not installed (pip install -e '.[serve]')")
    with zipfile.ZipFile(installed_wheel.wheel) as wheel:
        names = wheel.namelist()
        entry_points = wheel.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "[jupyter_serverproxy_servers]\njaxstate-tutor = tutor.serve.jupyter:setup_tutor" in entry_points
    assert {
        "tutor/serve/page.html",
        "tutor/serve/fonts/NotoSansMonoCJKsc-tutor.woff2",
        "tutor/serve/fonts/OFL.txt",
    } <= set(names)

    home = tmp_path / "home"
    server = subprocess.Popen(
        [str(installed_wheel.bin / "jaxstate-tutor"), "--lang", "en", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=installed_wheel.env(home),
        cwd=tmp_path,  # not the checkout
    )
    try:
        assert server.stdout is not None
        url = ""
        for line in server.stdout:
            if "http://" in line:
                url = "http://" + line.split("http://", 1)[1].strip()
                break
        assert url, "serve printed no address"
        base, token = url.split("/?token=")
        assert _get(base + "/")[0] == 403
        status, page = _get(url)
        assert status == 200 and b"textual.js" in page
        assert _get(f"{base}/fonts/NotoSansMonoCJKsc-tutor.woff2?token={token}")[0] == 200

        async def tab() -> bytes:
            seen = b""
            async with aiohttp.ClientSession() as client:
                ws = await client.ws_connect(f"{base.replace('http', 'ws', 1)}/ws/{token}/en?width=100&height=30")
                while b"Continue:" not in seen:
                    message = await asyncio.wait_for(ws.receive(), 120)
                    assert message.type == aiohttp.WSMsgType.BINARY, (message, seen[-500:])
                    seen += message.data
                await ws.send_str(json.dumps(["stdin", "\x11"]))  # Ctrl+Q: the tutor quits, the page is closed
                while not ws.closed:
                    await asyncio.wait_for(ws.receive(), 60)
            return seen

        asyncio.run(tab())
    finally:
        server.send_signal(signal.SIGINT)
        assert server.wait(60) == 0
