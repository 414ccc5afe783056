"""The argparse pieces every command module shares: the parser that shows (never obeys) the words
it echoes, the types of --home / --course and of seconds, and what a module adding its own
subcommands is handed."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tutor.cli.texts import MSG
from tutor.controls import show_controls
from tutor.doctor.options import positive_seconds
from tutor.paths import typed_folder
from tutor.settings import lang_of

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


class Subcommands(Protocol):
    """What `ArgumentParser.add_subparsers()` returns, as a module adding its commands uses it."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...  # argparse's own keywords


class Parser(argparse.ArgumentParser):
    """argparse echoes the words it could not take ("unrecognized arguments: ..."): shown, never obeyed."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        super()._print_message(show_controls(message) if message else message, file)


# The --lang of the words being parsed (set by `asked_lang_among`): argparse calls a type before it
# has read --lang (or never, when --lang comes later), so a bad value's message looks for it itself.
_asked_lang: str | None = None


def asked_lang_among(argv: list[str]) -> None:
    """Note the language a `--lang X` / `--lang=X` among `argv` asks for (the last one), for the types'
    messages."""
    from tutor.i18n import LANGS

    global _asked_lang
    _asked_lang = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        value = argv[i + 1] if word == "--lang" and i + 1 < len(argv) else word.partition("=")[2]
        if (word == "--lang" or word.startswith("--lang=")) and value in LANGS:
            _asked_lang = value


def seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above 0 (nan, inf, 0 and negatives are refused)."""
    try:
        return positive_seconds(text)
    except ValueError:
        raise argparse.ArgumentTypeError(MSG.say("bad_seconds", _asked_lang or lang_of(), value=text)) from None


def folder(text: str) -> Path:
    """An argparse type for --home and --course: a path, never an empty word (tutor.paths.typed_folder)."""
    try:
        return typed_folder(text)
    except ValueError:
        raise argparse.ArgumentTypeError(MSG.say("empty_folder", _asked_lang or lang_of())) from None
