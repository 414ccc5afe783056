"""A served learner's file moves between the server and their own machine, in headless Chromium:
downloaded from the palette (the page adds the seat's token; Chromium saves it), and uploaded in its
place through the page's form (the old one kept, the new one checked as after an outside save)."""

from __future__ import annotations

import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 180


def _until(what, label: str, timeout: float = 120.0):
    deadline = time.monotonic() + timeout
    while not (found := what()):
        assert time.monotonic() < deadline, f"{label}: not within {timeout} s"
        time.sleep(0.2)
    return found


def _palette(chromium, typed: str, shown: str) -> None:
    chromium.key("p", ctrl=True)
    chromium.wait_for("Search", timeout=120)
    chromium.type(typed)
    chromium.wait_for(shown, timeout=120)
    chromium.key("Enter")


def test_download_and_upload_the_exercise_file(chromium, serve, home, tmp_path):
    served = serve()
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    chromium.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=str(downloads))
    chromium.open(served.url)
    chromium.wait_for("Continue:", timeout=120)
    _palette(chromium, "counter-jit", "counter-jit:")
    chromium.wait_for("— counter-jit", timeout=120)
    mine = home / "workspace" / "counter-jit.py"
    starter = _until(lambda: mine.exists() and mine.read_bytes(), "the starter in the workspace")

    _palette(chromium, "Download", "Download counter-jit.py")
    got = _until(lambda: (downloads / "counter-jit.py").exists(), "the download saved by Chromium")
    assert got and (downloads / "counter-jit.py").read_bytes() == starter

    solution = tmp_path / "counter-jit.py"
    solution.write_bytes((ROOT / "solutions" / "counter-jit.py").read_bytes())
    _palette(chromium, "Upload", "Upload a file in place of counter-jit.py")
    _until(lambda: chromium.evaluate("document.body.classList.contains('-upload')"), "the upload form")
    root = chromium.call("DOM.getDocument")["root"]["nodeId"]
    node = chromium.call("DOM.querySelector", nodeId=root, selector="#upload-file")["nodeId"]
    chromium.call("DOM.setFileInputFiles", files=[str(solution)], nodeId=node)
    chromium.evaluate("document.getElementById('upload-go').click()")
    said = _until(lambda: chromium.evaluate("document.getElementById('upload-said').textContent"), "the answer")
    assert "Uploaded" in said, said
    shown = chromium.wait_for("PASS", "FAIL", "ERROR", timeout=DEADLINE_S)  # checked as after an outside save
    assert "PASS" in shown, shown
    shown = chromium.wait_for("Passed!", timeout=120)
    assert "Ctrl+N" not in shown, shown  # the browser keeps Ctrl+N (a new window): not offered here
    assert mine.read_bytes() == solution.read_bytes()
    kept = list((home / "workspace" / ".backup").glob("counter-jit-*-before-upload.py"))
    assert [p.read_bytes() for p in kept] == [starter]
    assert served.stop() == 0
    data = json.loads((home / "progress.json").read_text(encoding="utf-8"))
    assert data["exercises"]["counter-jit"]["status"] == "passed"


def test_the_file_routes_need_the_token_and_a_workspace_file(serve, home):
    import urllib.error
    import urllib.request

    served = serve()
    base, token = served.url.split("/?token=")
    (home / "workspace").mkdir(parents=True, exist_ok=True)
    (home / "workspace" / "counter-jit.py").write_text("x = 1\n", encoding="utf-8")

    def status(path: str, data: bytes | None = None) -> int:
        try:
            with urllib.request.urlopen(urllib.request.Request(base + path, data=data), timeout=30) as r:
                return r.status
        except urllib.error.HTTPError as exc:
            return exc.code

    assert status("/file/counter-jit.py") == 403
    assert status(f"/file/counter-jit.py?token={token}") == 200
    assert status(f"/file/progress.json?token={token}") == 400  # not an exercise file's name
    assert status(f"/file/..%2Fprogress.json?token={token}") in (400, 404)
    assert status(f"/file/pure-scale.py?token={token}") == 404  # not opened: nothing to replace
    assert status(f"/file/pure-scale.py?token={token}", b"x = 2\n") == 404
    assert status(f"/file/counter-jit.py?token={token}", b"\xff\xfe") == 400  # not text
    assert (home / "workspace" / "counter-jit.py").read_text(encoding="utf-8") == "x = 1\n"
