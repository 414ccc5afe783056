"""jupyter-server-proxy's entry (`jupyter_serverproxy_servers` in pyproject.toml): a tutor for
every Jupyter user, behind Jupyter's own login.

Jupyter starts `jaxstate-tutor serve` on a free port of 127.0.0.1 when the launcher's tile is
first opened, and proxies /jaxstate-tutor/ to it. The proxy adds the tutor's token to every
request it forwards (a header), so the Jupyter login is the only door a learner sees; another
user of the machine, who can reach the port but not this Jupyter, still meets the token. Each
Jupyter user (under JupyterHub: each learner's single-user server) gets their own tutor on
their own home (JAXSTATE_TUTOR_HOME if the hub sets it, else their user data dir).
"""

from __future__ import annotations

import sys

from tutor.serve.seats import TOKEN_HEADER, new_token
from tutor.settings import SERVE_TOKEN_VAR as TOKEN_VAR


def setup_tutor() -> dict:
    """The server process jupyter-server-proxy runs ({port} is its to fill)."""
    token = new_token()
    return {
        "command": [sys.executable, "-m", "tutor", "serve", "--host", "127.0.0.1", "--port", "{port}"],
        "environment": {TOKEN_VAR: token},
        "request_headers_override": {TOKEN_HEADER: token},
        "timeout": 60,  # the first start of a cold Python with Textual on a busy hub
        "new_browser_tab": True,
        "launcher_entry": {"title": launcher_title(), "category": "Other"},
    }


def launcher_title() -> str:
    """The launcher tile's name: the course's own title (lessons/course.yaml; the tile has one
    language, so English), or the tutor's name where the course cannot be read."""
    try:
        from tutor.course import read_course
        from tutor.settings import course_of

        return read_course(course_of())[0].title.en
    except Exception:  # noqa: BLE001 - Jupyter must still start, and the tab says what is wrong
        return "jaxstate-tutor"
