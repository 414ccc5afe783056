"""The tutor's settings, resolved once: the one module that reads JAXSTATE_TUTOR_* (besides the
worker's environment allow-list, which hands some of them on to child processes).

Precedence, for each setting: a command-line flag, else its environment variable, else the default.

| setting     | flag            | variable                          | default                         |
|-------------|-----------------|-----------------------------------|---------------------------------|
| home        | --home DIR      | JAXSTATE_TUTOR_HOME               | the platform's user data dir    |
| course      | --course DIR    | JAXSTATE_TUTOR_COURSE             | the shipped course              |
| lang        | --lang zh/en    | JAXSTATE_TUTOR_LANG               | the locale, else English        |
| accelerator | --accelerator   | JAXSTATE_TUTOR_ACCELERATOR=1      | off: workers use the CPU        |
| exchange    | --exchange DIR  | JAXSTATE_TUTOR_EXCHANGE           | none                            |
| fork_server |                 | JAXSTATE_TUTOR_FORK_SERVER=0: off | on                              |
| serve_token |                 | JAXSTATE_TUTOR_SERVE_TOKEN        | a fresh token                   |

`cli/main` resolves them from its arguments and passes them down (the Context, the TUI, each
sandbox); a library caller without a command line gets `from_environment()`. A child process
learns the course from the environment its parent gives it (tutor.sandbox.worker_process).
"""

from __future__ import annotations

import locale
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutor.errors import TutorError
from tutor.i18n import LANGS, Bilingual
from tutor.paths import shipped_course_root

HOME_VAR = "JAXSTATE_TUTOR_HOME"
COURSE_VAR = "JAXSTATE_TUTOR_COURSE"
LANG_VAR = "JAXSTATE_TUTOR_LANG"
ACCELERATOR_VAR = "JAXSTATE_TUTOR_ACCELERATOR"
EXCHANGE_VAR = "JAXSTATE_TUTOR_EXCHANGE"
FORK_SERVER_VAR = "JAXSTATE_TUTOR_FORK_SERVER"
SERVE_TOKEN_VAR = "JAXSTATE_TUTOR_SERVE_TOKEN"


class UnknownUserHome(TutorError):
    """A home spelled "~name/..." where no user of that name exists; `where` names who said it
    (the command line words it: cli/texts.py's home_no_such_user)."""

    def __init__(self, where: str):
        super().__init__(Bilingual.same(where), exit_code=2)
        self.where = where


@dataclass(frozen=True)
class Settings:
    home: Path
    course: Path
    lang: str
    lang_said: bool  # by --lang or the variable (serve: otherwise each tab follows its browser)
    accelerator: bool
    exchange: Path | None
    fork_server: bool
    serve_token: str | None


def lang_of(environ: Mapping[str, str] | None = None) -> str:
    """The language without a flag: JAXSTATE_TUTOR_LANG, else the locale; English if undecidable."""
    env = os.environ if environ is None else environ
    explicit = env.get(LANG_VAR, "")
    if explicit in LANGS:
        return explicit
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    return "zh" if loc.lower().startswith("zh") else "en"


def course_of(flag: Any = None, environ: Mapping[str, str] | None = None) -> Path:
    """The course's folder alone (a worker, the loader: no home to look up): --course, else
    JAXSTATE_TUTOR_COURSE, else the shipped course."""
    env = os.environ if environ is None else environ
    course = flag or env.get(COURSE_VAR)
    return Path(course).expanduser().absolute() if course else shipped_course_root()


def fork_server_on(environ: Mapping[str, str] | None = None) -> bool:
    """Whether workers may be forked from a fork server (JAXSTATE_TUTOR_FORK_SERVER=0: never)."""
    env = os.environ if environ is None else environ
    return env.get(FORK_SERVER_VAR, "1") != "0"


def _home(flag: Any, env: Mapping[str, str]) -> Path:
    if flag:
        where, path = f"--home {flag}", Path(flag)
    elif env.get(HOME_VAR):
        where, path = f"{HOME_VAR}={env[HOME_VAR]}", Path(env[HOME_VAR])
    else:
        import platformdirs

        return Path(platformdirs.user_data_dir("jaxstate-tutor", appauthor=False))
    try:
        return path.expanduser()
    except RuntimeError:  # "~name/...": no user of that name here
        raise UnknownUserHome(where) from None


def resolve(flags: Any = None, environ: Mapping[str, str] | None = None) -> Settings:
    """The settings from `flags` (an argparse Namespace or any object: its home, course, lang,
    accelerator and exchange attributes, where set), then `environ` (default: this process's),
    then the defaults."""
    env = os.environ if environ is None else environ

    def flag(name: str) -> Any:
        return getattr(flags, name, None)

    exchange = flag("exchange") or env.get(EXCHANGE_VAR, "").strip()
    return Settings(
        home=_home(flag("home"), env),
        course=course_of(flag("course"), env),
        lang=flag("lang") or lang_of(env),
        lang_said=bool(flag("lang")) or env.get(LANG_VAR) in LANGS,
        accelerator=bool(flag("accelerator")) or env.get(ACCELERATOR_VAR) == "1",
        exchange=Path(exchange) if exchange else None,
        fork_server=fork_server_on(env),
        serve_token=env.get(SERVE_TOKEN_VAR) or None,
    )


def from_environment() -> Settings:
    """The settings of a caller without a command line (a library use, a worker, a test)."""
    return resolve(None)
