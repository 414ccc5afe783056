"""The one base of the tutor's own errors: a message in both languages and the exit code the
command line ends with. Each face has one handler (cli/main for the command line, TutorApp.run_action
for the app: a key's action); a subclass keeps the constructor its raisers know and hands this base
its words.

Besides TutorError, only two classes sit on a builtin base, where callers catch the builtin:
tutor.protocol.ProtocolError (a ValueError, as a bad JSON line is) and
tutor.files.atomic.NotARegularFile (an OSError, as any failed open is)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tutor.i18n import Bilingual, Messages


class TutorError(Exception):
    """`message`: what went wrong, in both languages (str(error) is the English); `exit_code`:
    1, or 2 for bad usage."""

    exit_code: int = 1

    def __init__(self, message: Bilingual, exit_code: int | None = None):
        super().__init__(message.en)
        self.message = message
        if exit_code is not None:
            self.exit_code = exit_code


def worded(texts: Messages, key: str, fields: Mapping[str, Any]) -> Bilingual:
    """Message `key` of a texts table in both languages; the key itself where the fields do not
    fill it (the raiser's catcher adds them, and words it there)."""
    try:
        return Bilingual(en=texts.say(key, "en", **fields), zh=texts.say(key, "zh", **fields))
    except (KeyError, IndexError):
        return Bilingual.same(key)
