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

from tutor.serve.seats import TOKEN_HEADER, TOKEN_VAR, new_token


def setup_tutor() -> dict:
    """The server process jupyter-server-proxy runs ({port} is its to fill)."""
    token = new_token()
    return {
        "command": [sys.executable, "-m", "tutor", "serve", "--host", "127.0.0.1", "--port", "{port}"],
        "environment": {TOKEN_VAR: token},
        "request_headers_override": {TOKEN_HEADER: token},
        "timeout": 60,  # the first start of a cold Python with Textual on a busy hub
        "new_browser_tab": True,
        "launcher_entry": {"title": "JAX state tutor", "category": "Other"},
    }
