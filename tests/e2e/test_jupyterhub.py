"""A class on a real JupyterHub: docs/JUPYTERHUB.md's configuration as written (its paths and ports
replaced by the test's), configurable-http-proxy, the local-process spawner, two real Unix
accounts made for the test and removed after.

Each learner logs in through the hub's login form, lands in their own tutor through the hub's
proxy, and hands in with `jaxstate-tutor submit` typed into a Jupyter terminal of their own
server. Their servers and tutors run as their own accounts; from the other's terminal, their
home and their submission cannot be read, nor the exchange listed; the other's tutor is refused
by the hub. The instructor's `grade --exchange` names each by their account.

Needs root (the spawner switches accounts), configurable-http-proxy on PATH, and an install of
the tutor with JupyterHub that other accounts can run, named by JAXSTATE_TUTOR_HUB_VENV (.ci/run
makes one as the page says); skipped, saying which is missing, otherwise.
"""

from __future__ import annotations

import asyncio
import csv
import http.cookiejar
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENV_VAR = "JAXSTATE_TUTOR_HUB_VENV"
PASSWORD = "a-shared-password-for-this-test-only"
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _documented_config() -> str:
    doc = (ROOT / "docs" / "JUPYTERHUB.md").read_text(encoding="utf-8")
    match = re.search(r"^## The hub's configuration\n.*?```python\n(.*?)```", doc, re.M | re.S)
    assert match, "docs/JUPYTERHUB.md has no python block under 'The hub's configuration'"
    return match.group(1)


@pytest.fixture
def hub_install():
    venv = os.environ.get(VENV_VAR)
    if not venv:
        pytest.skip(f"no JupyterHub install learners can run: make one as docs/JUPYTERHUB.md says, set {VENV_VAR}")
    venv_path = Path(venv)
    for tool in ("jupyterhub", "jupyterhub-singleuser", "jaxstate-tutor"):
        if not (venv_path / "bin" / tool).exists():
            pytest.skip(f"{venv_path}/bin/{tool} is missing: pip install '.[jupyter]' jupyterhub into {venv_path}")
    if shutil.which("configurable-http-proxy") is None:
        pytest.skip("configurable-http-proxy is not on PATH (npm install -g configurable-http-proxy)")
    return venv_path


class Browser:
    """One learner's browser: cookies, redirects followed, the hub's _xsrf sent back."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str, timeout: float = 120) -> tuple[int, str, str]:
        try:
            with self.opener.open(self.base + path, timeout=timeout) as r:
                return r.status, r.geturl(), r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.geturl(), exc.read().decode("utf-8", "replace")

    def log_in(self, name: str) -> None:
        _, _, page = self.get("/hub/login")
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page)
        form = {"username": name, "password": PASSWORD, **({"_xsrf": xsrf.group(1)} if xsrf else {})}
        request = urllib.request.Request(self.base + "/hub/login", data=urllib.parse.urlencode(form).encode())
        with self.opener.open(request, timeout=180) as r:
            r.read()
        assert any(c.name.startswith("jupyterhub-session") for c in self.jar), "the hub did not log in " + name


def _api(base: str, token: str, path: str, method: str = "GET", body: dict | None = None) -> dict:
    request = urllib.request.Request(
        f"{base}/hub/api{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"token {token}"},
    )
    with urllib.request.urlopen(request, timeout=60) as r:
        text = r.read()
    return json.loads(text) if text else {}


def _wait_ready(base: str, token: str, name: str) -> None:
    deadline = time.monotonic() + 240  # a ceiling: a cold Jupyter server on a loaded box
    while True:
        server = _api(base, token, f"/users/{name}").get("servers", {}).get("")
        if server and server.get("ready"):
            return
        assert time.monotonic() < deadline, f"{name}'s server did not become ready: {server}"
        time.sleep(0.5)


def _terminal(base: str, token: str, name: str, command: str, until: str) -> str:
    """Type `command` into a new Jupyter terminal of NAME's server, through the hub's proxy, and
    return what the terminal printed up to `until`."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    headers = {"Authorization": f"token {token}"}
    request = urllib.request.Request(f"{base}/user/{name}/api/terminals", method="POST", data=b"", headers=headers)
    with urllib.request.urlopen(request, timeout=60) as r:
        term = json.loads(r.read())["name"]

    async def talk() -> str:
        url = base.replace("http", "ws", 1) + f"/user/{name}/terminals/websocket/{term}"
        ws = await websocket_connect(HTTPRequest(url, headers=headers, connect_timeout=60, request_timeout=60))
        ws.write_message(json.dumps(["stdin", command + "\r"]))
        seen = ""
        deadline = time.monotonic() + 240
        while until not in seen:
            left = deadline - time.monotonic()
            assert left > 0, f"the terminal never printed {until!r}: {seen[-2000:]}"
            message = await asyncio.wait_for(ws.read_message(), left)
            assert message is not None, f"the terminal closed: {seen[-2000:]}"
            kind, *rest = json.loads(message)
            if kind == "stdout":
                seen += rest[0]
        ws.close()
        return seen

    return asyncio.run(talk())


def _processes_of(uid: int) -> dict[int, str]:
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    found[int(entry)] = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                pass
    return found


def _pss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


@pytest.fixture
def class_hub(hub_install, class_accounts):
    ann, bob = class_accounts("ann"), class_accounts("bob")
    work = Path(tempfile.mkdtemp(prefix="jaxstate-test-hub-", dir="/tmp"))
    work.chmod(0o755)  # the exchange lies under it; the hub's own files are 0600 inside
    exchange = work / "exchange"
    done = subprocess.run(
        [str(hub_install / "bin" / "jaxstate-tutor"), "exchange", "init", str(exchange)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    # docs/JUPYTERHUB.md's /etc/profile.d line: a Jupyter terminal is a login shell, whose
    # /etc/profile sets PATH afresh. Removed after, as the accounts are.
    profile = Path(f"/etc/profile.d/jaxstate-tutor-test-{os.getpid()}.sh")
    if profile.parent.is_dir():
        profile.write_text(f'PATH="{hub_install / "bin"}:$PATH"\n', encoding="utf-8")
    token = os.urandom(16).hex()
    port, hub_port, api_port = _free_port(), _free_port(), _free_port()
    config = _documented_config().replace("/opt/jaxstate-tutor", str(hub_install))
    config = config.replace("/srv/jaxstate-exchange", str(exchange))
    config += f"""
# the test's own: ports, files, a PAM-free authenticator, an admin service for the REST API
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub_port}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.JupyterHub.db_url = "sqlite:///{work}/hub/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{work}/hub/cookie_secret"
c.ConfigurableHTTPProxy.pid_file = "{work}/hub/proxy.pid"
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = "{PASSWORD}"
c.Authenticator.allowed_users = {{"{ann.name}", "{bob.name}"}}
c.Authenticator.admin_users = set()
c.JupyterHub.services = [{{"name": "test", "api_token": "{token}"}}]
c.JupyterHub.load_roles = [{{"name": "test", "services": ["test"],
    "scopes": ["admin:users", "admin:servers", "tokens", "access:servers", "read:users"]}}]
# what the page says of Spawner.environment under the local-process spawner, tried
c.Spawner.environment["JT_TEMPLATE"] = "{{username}}"
c.Spawner.environment["JT_CALLABLE"] = lambda spawner: "name=" + spawner.user.name
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True
"""
    (work / "hub").mkdir(mode=0o700)
    (work / "hub" / "jupyterhub_config.py").write_text(config, encoding="utf-8")
    log = open(work / "hub" / "hub.log", "w")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAXSTATE_TUTOR_", "JUPYTER"))}
    env["PATH"] = f"{hub_install / 'bin'}:{env.get('PATH', '/usr/bin:/bin')}"
    hub = subprocess.Popen(
        [str(hub_install / "bin" / "jupyterhub"), "-f", str(work / "hub" / "jupyterhub_config.py")],
        cwd=work / "hub",
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while True:
        try:
            urllib.request.urlopen(base + "/hub/api", timeout=5).close()
            break
        except OSError:
            assert hub.poll() is None, (work / "hub" / "hub.log").read_text()
            assert time.monotonic() < deadline, "the hub did not answer"
            time.sleep(0.3)
    try:
        yield {"base": base, "token": token, "ann": ann, "bob": bob, "exchange": exchange, "venv": hub_install}
    finally:
        hub.send_signal(signal.SIGTERM)  # it stops the learners' servers and its proxy (cleanup_*)
        try:
            hub.wait(120)
        except subprocess.TimeoutExpired:
            hub.kill()
            hub.wait()
        log.close()
        pid_file = work / "hub" / "proxy.pid"
        if pid_file.exists():  # the proxy it started, if it outlived the hub
            try:
                os.kill(int(pid_file.read_text().strip()), signal.SIGTERM)
            except (OSError, ValueError):
                pass
        profile.unlink(missing_ok=True)
        shutil.rmtree(work, ignore_errors=True)


def test_two_learners_on_a_real_hub(class_hub, request):
    base, token, exchange = class_hub["base"], class_hub["token"], class_hub["exchange"]
    ann, bob = class_hub["ann"], class_hub["bob"]
    browsers = {}
    for learner in (ann, bob):
        browser = browsers[learner.name] = Browser(base)
        browser.log_in(learner.name)  # the login form; the hub then spawns their server
        _wait_ready(base, token, learner.name)
        status, url, page = browser.get(f"/user/{learner.name}/jaxstate-tutor/")  # through the hub's proxy
        assert status == 200 and "textual" in page.lower(), (status, url, page[:500])

    # each one's Jupyter server and tutor run as their own account
    for learner in (ann, bob):
        mine = _processes_of(learner.uid)
        assert any("jupyterhub-singleuser" in c for c in mine.values()), mine
        assert any("-m tutor serve" in c for c in mine.values()), mine

    # bob's browser cannot open ann's tutor: the hub refuses it
    status, url, _ = browsers[bob.name].get(f"/user/{ann.name}/jaxstate-tutor/")
    assert status == 403 or f"/user/{ann.name}/" not in url, (status, url)

    # hand-in, typed into each learner's own terminal, in the environment the hub gave them
    submitted = {}
    for learner in (ann, bob):
        user_token = _api(base, token, f"/users/{learner.name}/tokens", "POST", {"expires_in": 600})["token"]
        said = _terminal(
            base,
            user_token,
            learner.name,
            "jaxstate-tutor --lang en hint counter-jit >/dev/null; jaxstate-tutor --lang en submit; echo END-$((40+2))-$?",
            "END-42-",
        )
        assert "END-42-0" in said and f"Handed in as {learner.name}" in said, said
        submitted[learner.name] = re.search(r"Handed in as \S+: (\S+\.json)", said).group(1)
    assert {Path(p).parent for p in submitted.values()} == {exchange}

    # from bob's own terminal: ann's home, ann's submission and the exchange's list are refused
    ann_progress = ann.home / ".local/share/jaxstate-tutor/progress.json"
    assert ann_progress.exists()  # her tutor keeps her progress in her own home
    bob_token = _api(base, token, f"/users/{bob.name}/tokens", "POST", {"expires_in": 600})["token"]
    said = _terminal(
        base,
        bob_token,
        bob.name,
        f"ls {ann.home}; cat {ann_progress}; cat {submitted[ann.name]}; ls {exchange}; "
        'echo "T=$JT_TEMPLATE C=$JT_CALLABLE"; echo END-$((40+2))-$?',
        "END-42-",
    )
    assert f"T={{username}} C=name={bob.name}" in said, said  # a template is not expanded; a callable is called
    assert said.count("Permission denied") == 4, said
    assert '"format"' not in said and '"exercises"' not in said, said

    # the instructor collects: one row each, named by the account that handed it in
    done = subprocess.run(
        [str(class_hub["venv"] / "bin" / "jaxstate-tutor"), "--lang", "en", "grade", "--exchange", str(exchange)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    rows = [r for r in rows if r["status"] != "missing" or r["claimed"]]  # handed in, of a row per exercise
    assert sorted((r["learner"], r["exercise"]) for r in rows) == sorted(
        [(ann.name, "counter-jit"), (bob.name, "counter-jit")]
    )

    # ann's tutor in a real browser, with her hub session's cookies: the page's websocket goes
    # through the hub's proxy and her Jupyter server's to her tutor, which draws and takes keys
    try:
        chromium = request.getfixturevalue("chromium")
    except pytest.skip.Exception as why:
        chromium = None
        print(f"the tutor's tab was not opened in a browser: {why}")
    if chromium is not None:
        chromium.call("Network.enable")
        for c in browsers[ann.name].jar:
            chromium.call("Network.setCookie", name=c.name, value=c.value or "", url=base + (c.path or "/"))
        chromium.open(f"{base}/user/{ann.name}/jaxstate-tutor/")
        chromium.wait_for("Continue:", timeout=180)
        chromium.key("p")
        chromium.wait_for("Progress", timeout=60)

    # what each learner holds now, PSS: their Jupyter server, the tutor's server, a terminal, and
    # for ann the tutor session of her open tab
    for learner in (ann, bob):
        kb = {pid: (_pss_kb(pid), cmd) for pid, cmd in _processes_of(learner.uid).items()}
        print(f"{learner.name}: {sum(k for k, _ in kb.values()) / 1024:.0f} MB PSS in {len(kb)} processes")
        for k, cmd in sorted(kb.values(), reverse=True):
            print(f"  {k / 1024:6.1f} MB  {cmd[:110]}")
