"""The code editor: Textual's TextArea with Python highlighting and the indentation keys of a code editor.

What CodeEditor adds to `TextArea.code_editor` (which already inserts spaces to the next tab
stop on Tab, and gives Ctrl+Z / Ctrl+Y undo):

- Enter keeps the line's indentation, one level more after a line ending in `:` (a trailing
  comment is ignored); a line left holding only spaces is emptied.
- Backspace in the leading spaces goes back to the previous multiple of 4.
- Tab with a selection indents every selected line; Shift+Tab dedents the current line or every
  selected line, and keeps the focus (Textual's screens bind Shift+Tab to "focus previous").
- Esc posts `CodeEditor.Leave`: the screen decides where the focus goes.
- No F-key is bound, so every F-key reaches the screen (TextArea binds F6 and F7); Ctrl+A
  selects all (Home goes to the line start).
- Under NO_COLOR, keywords are bold and comments italic instead of colours turned grey.
- Long lines wrap (soft wrap): no sideways scrolling that hides the start of other lines.
- Letters that arrive in one burst (over a slow link, say) go in as one edit
  (tutor.ui.key_order.typed_after): highlighted and drawn once, undone as one step.

Each of these edits is one undo step.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.util import find_spec

from rich.style import Style
from textual import events
from textual.binding import Binding, BindingsMap
from textual.containers import ScrollableContainer
from textual.message import Message
from textual.widgets import TextArea
from textual.widgets.text_area import Edit, Selection, TextAreaTheme

from tutor.ui.key_order import typed_after

FUNCTION_KEYS = {f"f{n}" for n in range(1, 25)}


def highlighting_available() -> bool:
    """Textual highlights Python through tree-sitter (a dependency; a broken install can lack it)."""
    return find_spec("tree_sitter") is not None and find_spec("tree_sitter_python") is not None


def _inherited_bindings_without(keys: set[str]) -> list[Binding]:
    """TextArea's bindings (over its base's, key by key, as Textual merges them), less `keys`."""
    by_key: dict[str, list[Binding]] = {}
    for bindings in (ScrollableContainer.BINDINGS, TextArea.BINDINGS):
        for key, key_bindings in BindingsMap(bindings).key_to_bindings.items():
            by_key[key] = key_bindings
    return [b for key, key_bindings in by_key.items() if key not in keys for b in key_bindings]


def code_part(line: str) -> str:
    """The line without a trailing `# comment` (a `#` inside a string literal is kept)."""
    quote = None
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 1
            elif line.startswith(quote, i):
                i += len(quote) - 1
                quote = None
        elif ch == "#":
            return line[:i]
        elif ch in "'\"":
            quote = line[i : i + 3] if line[i : i + 3] in ("'''", '"""') else ch
            i += len(quote) - 1
        i += 1
    return line


def opens_block(line: str) -> bool:
    """Does the line end in `:` (ignoring a comment and spaces after it)?"""
    return code_part(line).rstrip().endswith(":")


def leading_spaces(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


# Under NO_COLOR Textual turns colours into greys, and monokai's keywords become dark grey on
# grey: there, keywords are bold and comments italic, everything else plain text.
_BOLD = (
    "keyword",
    "keyword.function",
    "keyword.return",
    "keyword.operator",
    "conditional",
    "repeat",
    "include",
    "exception",
    "boolean",
    "none",
    "constant.builtin",
)
MONOCHROME = TextAreaTheme(
    "tutor-monochrome", syntax_styles={**{name: Style(bold=True) for name in _BOLD}, "comment": Style(italic=True)}
)


@dataclass
class _LinesEdit(Edit):
    """An edit of whole lines that leaves the selection where the learner expects it (also on redo)."""

    selection_after: Selection | None = None

    def do(self, text_area, record_selection: bool = True):
        result = super().do(text_area, record_selection)
        if self.selection_after is not None:
            self._updated_selection = self.selection_after
        return result


class CodeEditor(TextArea, inherit_bindings=False):
    """A TextArea that edits Python like a code editor does (see the module docstring)."""

    BINDINGS = [
        *_inherited_bindings_without(FUNCTION_KEYS | {"ctrl+a"}),
        Binding("ctrl+a", "select_all", "Select all", show=False),
        Binding("shift+tab", "dedent", "Dedent", show=False),
    ]

    class Leave(Message):
        """Esc in the editor: the learner wants out of it. The screen decides what that means
        (the exercise screen shows what was being read); the editor never closes a screen."""

        def __init__(self, editor: CodeEditor) -> None:
            super().__init__()
            self.editor = editor

        @property
        def control(self) -> CodeEditor:
            return self.editor

    def on_mount(self) -> None:
        if self.app.no_color:
            self.register_theme(MONOCHROME)
            self.theme = MONOCHROME.name

    # ---- keys ------------------------------------------------------------------------------

    async def _on_key(self, event: events.Key) -> None:
        """Runs before TextArea's own key handler; keys not handled here go on to it."""
        self._restart_blink()  # as TextArea's handler does, which the keys handled here skip
        key = event.key
        if key == "escape":
            event.stop()
            event.prevent_default()
            self._leave()
            return
        if await self._run_own_binding(key):
            event.stop()
            event.prevent_default()
            return
        if self.read_only:
            return
        if key == "enter":
            event.stop()
            event.prevent_default()
            self.newline()
        elif key == "tab" and not self.selection.is_empty:
            event.stop()
            event.prevent_default()
            self.indent_lines()
        elif event.is_printable and event.character and (more := typed_after(event)):
            # A burst: the letters queued behind this one go in with it, as TextArea types one
            # (replacing the selection), in one edit: one re-highlight and one redraw for all.
            event.stop()
            event.prevent_default()
            start, end = self.selection
            self.replace(event.character + more, start, end, maintain_selection_offset=False)

    async def _run_own_binding(self, key: str) -> bool:
        """Run the editor's own binding for `key` now, in order with the typing around it.

        Textual resolves a focused widget's bindings only once the key has bubbled up to the
        app, after the widget has handled the keys queued behind it: keys that arrive in one
        burst (a slow SSH link, tmux send-keys) would apply Backspace or Ctrl+A after the
        characters typed after them."""
        for binding in self._bindings.key_to_bindings.get(key, ()):
            if await self.app.run_action(binding.action, self):
                return True
        return False

    def _leave(self) -> None:
        self.post_message(self.Leave(self))
        if not self._leave_is_handled():
            self.screen.focus_next()  # nobody listens: do what TextArea does, rather than nothing

    def _leave_is_handled(self) -> bool:
        for node in self.ancestors:
            if callable(getattr(node, self.Leave.handler_name, None)):
                return True
            if any(self.Leave in (cls.__dict__.get("_decorated_handlers") or {}) for cls in type(node).__mro__):
                return True
        return False

    def action_dedent(self) -> None:
        if not self.read_only:
            self.dedent_lines()

    def action_delete_left(self) -> None:
        """Backspace: in the leading spaces, back to the previous multiple of the indent width."""
        if self.read_only or not self.selection.is_empty:
            return super().action_delete_left()
        row, column = self.cursor_location
        before = self.document[row][:column]
        if column == 0 or before.strip(" "):
            return super().action_delete_left()
        target = (column - 1) // self.indent_width * self.indent_width
        self._one_step(lambda: self.delete((row, target), (row, column), maintain_selection_offset=False))

    # ---- edits -----------------------------------------------------------------------------

    def _one_step(self, edit) -> None:
        """Run an edit as an undo step of its own."""
        self.history.checkpoint()
        edit()
        self.history.checkpoint()

    def newline(self) -> None:
        """Enter: a new line with the current line's indentation, one level more after `:`."""
        start, end = sorted(self.selection)
        row, column = start
        before = self.document[row][:column]
        indent = leading_spaces(before)
        if opens_block(before):
            indent += " " * self.indent_width
        # A line left holding only spaces is emptied: no trailing whitespace in the file.
        origin = (row, 0) if not before.strip() else start
        self._one_step(lambda: self.replace("\n" + indent, origin, end, maintain_selection_offset=False))

    def _selected_rows(self) -> range:
        start, end = sorted(self.selection)
        last = end[0]
        if end[0] > start[0] and end[1] == 0:
            last -= 1  # a selection that ends at the start of a line does not take that line
        return range(start[0], last + 1)

    def indent_lines(self) -> None:
        """Tab with a selection: one level more on every selected line (blank lines stay empty)."""
        width = self.indent_width

        def indent(line: str) -> str:
            return " " * width + line if line.strip() else line

        self._reindent(indent)

    def dedent_lines(self) -> None:
        """Shift+Tab: one level less on the current line, or every selected line."""
        width = self.indent_width

        def dedent(line: str) -> str:
            if line.startswith("\t"):
                return line[1:]
            spaces = len(line) - len(line.lstrip(" "))
            return line[min(spaces, width) :]

        self._reindent(dedent)

    def _reindent(self, change) -> None:
        rows = self._selected_rows()
        old = [self.document[r] for r in rows]
        new = [change(line) for line in old]
        if new == old:
            return
        keep_zero = not self.selection.is_empty  # whole selected lines stay selected

        def moved(location):
            r, c = location
            if r not in rows:
                return location
            o, n = old[r - rows.start], new[r - rows.start]
            old_indent, new_indent = len(leading_spaces(o)), len(leading_spaces(n))
            if keep_zero and c == 0:
                return location
            if c >= old_indent:
                return (r, max(0, c + new_indent - old_indent))
            return (r, min(c, new_indent))

        start, end = self.selection
        after = Selection(moved(start), moved(end))
        top, bottom = (rows.start, 0), (rows.stop - 1, len(old[-1]))
        self._one_step(lambda: self.edit(_LinesEdit("\n".join(new), top, bottom, False, selection_after=after)))


def make_editor(text: str, **kwargs) -> CodeEditor:
    """A CodeEditor on `text`, highlighting Python when tree-sitter can."""
    language = "python" if highlighting_available() else None
    # Soft wrap: a view scrolled sideways for one long line cut the start off every other line
    # (`mport jax.numpy`); wrapped, every line starts at the gutter, its continuation unnumbered.
    kwargs.setdefault("soft_wrap", True)
    try:
        editor = CodeEditor.code_editor(text, language=language, **kwargs)
    except Exception:  # noqa: BLE001 - a broken grammar install must not cost the learner the editor
        editor = CodeEditor.code_editor(text, language=None, **kwargs)
    assert isinstance(editor, CodeEditor)  # code_editor makes `cls`; Textual annotates it as TextArea
    return editor
