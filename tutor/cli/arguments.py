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


def seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above 0 (nan, inf, 0 and negatives are refused)."""
    try:
        return positive_seconds(text)
    except ValueError:
        raise argparse.ArgumentTypeError(MSG.say("bad_seconds", lang_of(), value=text)) from None


def folder(text: str) -> Path:
    """An argparse type for --home and --course: a path, never an empty word (tutor.paths.typed_folder)."""
    try:
        return typed_folder(text)
    except ValueError:
        raise argparse.ArgumentTypeError(MSG.say("empty_folder", lang_of())) from None
