"""The tutor behind a real Jupyter server, through jupyter-server-proxy's entry point, in headless
Chromium: Jupyter's login is the door, the proxy hands the tutor its token, the page's websocket
works under the /jaxstate-tutor/ prefix.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from importlib.metadata import entry_points

import pytest

pytest.importorskip("jupyter_server", reason="jupyter-server is not installed (pip install -e '.[test]')")
pytest.importorskip("jupyter_server_proxy", reason="jupyter-server-proxy is not installed (pip install -e '.[serve]')")
pytest.importorskip("textual_serve", reason="textual-serve is not installed (pip install -e '.[serve]')")
ENTRY = "jaxstate-tutor"
JUPYTER_TOKEN = "jupyter-login-token-for-this-test"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def jupyter(tmp_path, home, cli_env):
    if ENTRY not in {e.name for e in entry_points(group="jupyter_serverproxy_servers")}:
        pytest.skip("the tutor's jupyter_serverproxy_servers entry point is not installed (pip install -e .)")
    env = cli_env(home)
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        env[var] = str(tmp_path / var.lower())  # none of this machine's Jupyter settings
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    port = _free_port()
    log = open(tmp_path / "jupyter.log", "w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyter_server",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={JUPYTER_TOKEN}",
            f"--ServerApp.root_dir={tmp_path}",
        ]
        + (["--allow-root"] if os.geteuid() == 0 else []),
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120  # a ceiling: the loop ends once Jupyter answers
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={JUPYTER_TOKEN}", timeout=5).close()
            break
        except OSError:
            assert process.poll() is None, (tmp_path / "jupyter.log").read_text()
            assert time.monotonic() < deadline, "Jupyter did not answer"
            time.sleep(0.2)
    yield base
    process.terminate()
    try:
        process.wait(60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    log.close()


def test_the_tutor_behind_jupyter_in_chromium(jupyter, chromium):
    info = urllib.request.urlopen(f"{jupyter}/server-proxy/servers-info?token={JUPYTER_TOKEN}", timeout=30).read()
    assert b"JAX state tutor" in info  # the launcher's tile
    with urllib.request.urlopen(f"{jupyter}/{ENTRY}/", timeout=60) as r:  # no Jupyter login: its login page
        assert "/login" in r.geturl() and b"textual.js" not in r.read()

    chromium.open(f"{jupyter}/{ENTRY}/?token={JUPYTER_TOKEN}")
    chromium.wait_for("Continue:", timeout=120)  # the page, its scripts and its websocket, all through the proxy
    chromium.key("p")
    chromium.wait_for("Progress", timeout=60)
