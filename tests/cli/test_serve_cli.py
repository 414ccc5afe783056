"""`jaxstate-tutor serve` at its door: no token, no page (403); its words checked before it listens.

No tutor session is started here (tests/e2e/test_serve_*.py do that, in a browser and without).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest


def _status(url: str, headers: dict | None = None) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as r:
            return r.status, r.read().decode(errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_every_request_without_the_token_is_refused(serve):
    served = serve()
    base, token = served.base(), served.url.split("?token=")[1]
    assert served.url.startswith("http://127.0.0.1:")  # loopback unless told otherwise
    font = "/fonts/NotoSansMonoCJKsc-tutor.woff2"
    for path in ("/", "/?token=", "/?token=wrong", f"/?token={token[:-1]}", "/static/js/textual.js", font, "/ws/wrong"):
        code, body = _status(base + path)
        assert code == 403, path
        assert "token" in body  # says what is missing
    assert _status(f"{base}/static/js/textual.js?token={token}")[0] == 200
    assert _status(f"{base}{font}?token={token}")[0] == 200
    code, page = _status(served.url)
    assert code == 200
    assert "textual.js" in page and token in page
    assert "https://" not in page and "http://" not in page  # nothing fetched from elsewhere: works offline
    # A proxy in front (jupyter-server-proxy) hands the token over in a header instead.
    assert _status(base + "/?token=jupyters-own", {"X-Jaxstate-Tutor-Token": token})[0] == 200


def test_learners_get_an_address_each(serve, home):
    served = serve("--learner", "ann", "--learner", "bob")
    assert set(served.urls) == {"ann", "bob"}
    assert served.urls["ann"] != served.urls["bob"]
    token = served.urls["ann"].split("?token=")[1]
    assert (home / ".serve-tokens" / "ann").read_text().strip() == token  # the server's, not in ann's home
    assert not (home / "learners" / "ann" / ".serve-token").exists()
    assert _status(served.urls["bob"])[0] == 200


def _serve(cli_env, home, *words: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tutor", "--lang", "en", "serve", *words],
        capture_output=True,
        text=True,
        env=cli_env(home),
        timeout=60,
    )


def test_a_bad_learner_name_is_refused_before_listening(cli_env, home):
    pytest.importorskip("textual_serve")
    out = _serve(cli_env, home, "--port", "0", "--learner", "../eve")
    assert out.returncode == 2
    assert "--learner '../eve'" in out.stderr and "a-z" in out.stderr


def test_a_taken_port_is_named(cli_env, home):
    pytest.importorskip("textual_serve")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = _serve(cli_env, home, "--port", str(port))
    assert out.returncode == 2
    assert f"127.0.0.1:{port}" in out.stderr and "--port" in out.stderr


def test_the_app_entry_runs_only_under_textual_serve(cli_env, home):
    env = cli_env(home)
    env.pop("TEXTUAL_DRIVER", None)
    out = subprocess.run(
        [sys.executable, "-m", "tutor.serve.app", "--home", str(home)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 2
    assert "textual-serve" in out.stderr and "jaxstate-tutor serve" in out.stderr
    assert not os.path.exists(home / "progress.json")


def test_without_textual_serve_it_says_which_extra(cli_env, home):
    code = (
        "import sys; sys.modules['textual_serve'] = None; from tutor.cli.main import main; "
        "raise SystemExit(main(['--lang', 'en', 'serve', '--port', '0']))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=cli_env(home), timeout=60)
    assert out.returncode == 2
    assert "textual-serve" in out.stderr and "[serve]" in out.stderr


def test_each_tab_takes_its_browsers_language_unless_one_was_said(serve):
    chosen = serve(lang=None)  # neither --lang nor $JAXSTATE_TUTOR_LANG
    page = _status(chosen.url, {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"})[1]
    assert '<html lang="zh">' in page and '/zh"' in page and "教程" in page  # the tab's tutor starts in zh
    page = _status(chosen.url, {"Accept-Language": "en-GB,en;q=0.9"})[1]
    assert '<html lang="en">' in page and '/en"' in page
    said = serve()  # --lang en
    page = _status(said.url, {"Accept-Language": "zh-CN"})[1]
    assert '<html lang="en">' in page and '/en"' in page


def test_a_tabs_process_loads_neither_the_web_server_nor_jax(cli_env, home):
    """Each tab's tutor is the TUI's size (P11): the server's aiohttp and textual-serve stay in the
    server, JAX in the workers."""
    code = (
        "import sys, tutor.serve.app, tutor.ui.app; "
        "print(sorted(m for m in ('aiohttp', 'textual_serve', 'jax') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=cli_env(home), timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_plain_command_runs_under_any_textual_serve(cli_env, home):
    """`textual serve "jaxstate-tutor"` (or textual-web) runs the command on pipes with Textual's web
    driver: it starts (Textual's web prelude) and quits when told, instead of 'not a terminal'."""
    env = cli_env(home)
    env["TEXTUAL_DRIVER"] = "textual.drivers.web_driver:WebDriver"
    tutor = subprocess.Popen(
        [sys.executable, "-m", "tutor", "--lang", "en"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        assert tutor.stdout is not None and tutor.stdin is not None
        assert tutor.stdout.readline() == b"__GANGLION__\n"
        seen = b""
        while b"Continue:" not in seen:  # textual-serve's packets: kind, length, payload
            kind, size = tutor.stdout.read(1), int.from_bytes(tutor.stdout.read(4), "big")
            assert kind, "the app ended before drawing its outline"
            seen += tutor.stdout.read(size)
        quit_ = b'{"type": "quit"}'
        tutor.stdin.write(b"M" + len(quit_).to_bytes(4, "big") + quit_)  # textual-serve's packet
        tutor.stdin.flush()
        tutor.stdout.read()  # to its end: the app has gone
        assert tutor.wait(60) == 0
    finally:
        if tutor.poll() is None:
            tutor.kill()
            tutor.wait()


def test_the_page_is_titled_by_the_course_served(serve, cli_env, home, tmp_path):
    """Another author's course (new-course) names the page, not the shipped course; so does the
    Jupyter launcher's tile."""
    course = tmp_path / "stats-101"
    made = subprocess.run(
        [sys.executable, "-m", "tutor", "new-course", str(course)], capture_output=True, text=True, env=cli_env(home)
    )
    assert made.returncode == 0, made.stderr
    page = _status(serve("--course", str(course)).url)[1]
    assert "<title>stats-101</title>" in page and "JAX" not in page, page[:400]
    tile = subprocess.run(
        [sys.executable, "-c", "from tutor.serve.jupyter import setup_tutor; print(setup_tutor()['launcher_entry'])"],
        capture_output=True,
        text=True,
        env=dict(cli_env(home), JAXSTATE_TUTOR_COURSE=str(course)),
    )
    assert "'title': 'stats-101'" in tile.stdout, tile.stderr
