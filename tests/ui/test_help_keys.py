"""The help screen names every key: each binding of the app, of every screen and of the tutor's
own widgets is said, in en and zh, in the section of the screen it works on (or under "Everywhere").
F10, the trace panel's key, was missing from help when it came (issue 56); this keeps the next one
from going the same way. And a screen's key is never one the widget focused in it takes first
(the exercise's Ctrl+Y was the editor's redo, so it did nothing while the learner typed)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

pytest.importorskip("textual")

from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.dom import DOMNode
from textual.widgets import TextArea

import tutor.ui.screens
import tutor.ui.widgets
from tutor.ui.app import TutorApp
from tutor.ui.texts import UI

# The help's section for each class's keys (its heading's start, en and zh); "Everywhere" is
# looked in too. A new screen with keys must be given its section here, and in the help.
EVERYWHERE = ("Everywhere", "任何地方")
SECTIONS = {
    "TutorApp": EVERYWHERE,
    "HelpScreen": EVERYWHERE,
    "ConfirmScreen": EVERYWHERE,
    "ProblemsScreen": EVERYWHERE,
    "OutlineScreen": ("Outline", "目录"),
    "LessonScreen": ("Lesson", "章节"),
    "CellView": ("Lesson", "章节"),
    "ScratchScreen": ("Lesson", "章节"),
    "ExerciseScreen": ("Exercise", "练习"),
    "CompareScreen": ("Exercise", "练习"),
    "SolutionScreen": ("Exercise", "练习"),
    "CodeEditor": ("Exercise", "练习"),
    "QuizScreen": ("Quiz", "测验"),
    "DrillScreen": ("Spot the bug", "找错"),
    "ProgressScreen": ("Progress", "学习进度"),
    "DoctorScreen": ("Doctor", "诊断"),
}
NAMES = {"escape": "Esc", "enter": "Enter", "tab": "Tab", "left": "←", "right": "→", "up": "↑", "down": "↓"}
NAMES |= {"home": "Home", "end": "End", "pageup": "PgUp", "pagedown": "PgDn", "backspace": "Backspace"}


def said(key: str) -> str:
    """A key as the help writes it: Ctrl+Y, Shift+Tab, F10, Esc, a letter as it is."""
    *mods, last = key.split("+")
    last = NAMES.get(last, last.upper() if len(last) > 1 or mods else last)
    return "+".join([*(m.capitalize() for m in mods), last])


def keys_of(cls) -> list[str]:
    bindings = [b if isinstance(b, Binding) else Binding(*b) for b in cls.__dict__.get("BINDINGS", [])]
    keys = [(k.strip(), b.action) for b in bindings for k in b.key.split(",")]
    if issubclass(cls, TextArea):  # the editor's own keys, not the ones Textual's editor has
        theirs = {
            (k.strip(), b.action)
            for b in (*ScrollableContainer.BINDINGS, *TextArea.BINDINGS)
            if isinstance(b, Binding)
            for k in b.key.split(",")
        }
        keys = [k for k in keys if k not in theirs]
    return [k for k, _ in keys]


def classes_with_keys() -> list[type]:
    found = [TutorApp]
    for pkg in (tutor.ui.screens, tutor.ui.widgets):
        for info in pkgutil.iter_modules(pkg.__path__):
            module = importlib.import_module(f"{pkg.__name__}.{info.name}")
            for _, cls in inspect.getmembers(module, inspect.isclass):
                if cls.__module__ == module.__name__ and issubclass(cls, DOMNode) and keys_of(cls):
                    found.append(cls)
    return found


def named_keys(section: str) -> set[str]:
    """Every key a section writes in bold (**F4** / **q**, **↑ ↓ PgUp**, ranges **1–4**, **a–d**)."""
    out: set[str] = set()
    for bold in re.findall(r"\*\*(.+?)\*\*", section):
        for word in re.split(r"[\s/]+", bold):
            if m := re.fullmatch(r"(\w)–(\w)", word):
                out |= {chr(c) for c in range(ord(m[1]), ord(m[2]) + 1)}
            elif word:
                out.add(word)
    return out


def sections(lang: str) -> dict[str, str]:
    body = UI["help_body"].get(lang)
    parts = re.split(r"(?m)^## ", body)
    return {p.splitlines()[0]: p for p in parts if p.strip()}


def test_every_class_with_keys_has_a_section_in_help():
    assert {c.__name__ for c in classes_with_keys()} <= set(SECTIONS), "a screen with keys has no help section"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_help_names_every_key_of_every_screen(lang):
    found = sections(lang)
    where = 0 if lang == "en" else 1
    everywhere = named_keys(next(v for k, v in found.items() if k.startswith(EVERYWHERE[where])))
    missing = []
    for cls in classes_with_keys():
        heading = SECTIONS[cls.__name__][where]
        section = next((v for k, v in found.items() if k.startswith(heading)), None)
        assert section is not None, f"help ({lang}) has no section {heading!r}"
        named = named_keys(section) | everywhere
        missing += [f"{cls.__name__}: {k} ({said(k)})" for k in keys_of(cls) if said(k) not in named]
    assert not missing, f"help ({lang}) does not name: {missing}"


def test_the_help_test_would_see_a_key_missing():
    assert said("f10") == "F10" and said("ctrl+y") == "Ctrl+Y" and said("shift+tab") == "Shift+Tab"
    assert "F10" not in named_keys("- **F9** / **Ctrl+O** editor · F10 not bold")
    assert {"1", "4", "a", "d"} <= named_keys("- **1–4** / **a–d** choose")


def test_no_screen_key_is_taken_first_by_the_editor_inside_it():
    """Textual asks the focused widget's bindings first: a screen key the editor also binds never
    reaches the screen while the learner is in the editor (unless the screen's has priority)."""
    from tutor.ui.screens.exercise import ExerciseScreen
    from tutor.ui.screens.scratch import ScratchScreen
    from tutor.ui.widgets.editor import CodeEditor

    editor = {k.strip() for b in CodeEditor.BINDINGS if isinstance(b, Binding) for k in b.key.split(",")}
    for screen in (ExerciseScreen, ScratchScreen):
        taken = [
            k
            for b in screen.BINDINGS
            if isinstance(b, Binding) and not b.priority
            for k in b.key.split(",")
            if k.strip() in editor
        ]
        assert not taken, f"{screen.__name__}: {taken} are the editor's while it has the focus"
