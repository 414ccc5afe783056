"""The key bar at the bottom of every screen: the screen's shown bindings, drawn as one line.

Textual's Footer mounts a widget per key and mounts them all anew whenever the bindings change,
which is on every focus change; a screen of ten keys then spends milliseconds styling widgets on
each Tab. This bar is one widget that renders one Text, with the Footer's compact look."""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widget import Widget


@dataclass(frozen=True)
class ShownKey:
    key: str  # the binding's key, as pressed by a click on it
    display: str  # the key as shown ("F5", "^p")
    description: str
    enabled: bool
    start: int  # the cells it takes on the bar: [start, end)
    end: int


# Keys a browser keeps for itself (a new window or tab, close the tab, quit the browser): a page
# never sees them. Served (`serve`), the bar offers an action by another of its keys, or not at all.
BROWSER_KEEPS = frozenset({"ctrl+n", "ctrl+t", "ctrl+w", "ctrl+q", "ctrl+tab", "ctrl+shift+tab"})


def works_here(app, key: str) -> bool:
    """Whether a key reaches the app: every key in a terminal; in a browser, not those it keeps."""
    return not (app.is_web and key in BROWSER_KEEPS)


class KeyBar(Widget, can_focus=False):
    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"key-bar--key", "key-bar--description"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        .key-bar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .key-bar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """

    def __init__(self, palette: bool = False) -> None:
        super().__init__()
        self.palette = palette  # the command palette's key, at the right end

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen) -> None:
        if self.is_attached and screen is self.screen:
            self.refresh()

    def keys(self) -> list[ShownKey]:
        """The keys on the bar, left to right, with the cells each takes (the palette's last)."""
        active = self.screen.active_bindings
        palette_key = self.app.COMMAND_PALETTE_BINDING if self.palette and self.app.ENABLE_COMMAND_PALETTE else None
        first_per_action: dict[str, tuple[Binding, bool]] = {}
        for key, (_node, binding, enabled, _tooltip) in active.items():
            if binding.show and key != palette_key and works_here(self.app, key):
                first_per_action.setdefault(binding.action, (binding, enabled))  # one entry per action
        shown, x = [], 0
        for binding, enabled in first_per_action.values():
            display = self.app.get_key_display(binding)
            width = cell_len(display) + (1 + cell_len(binding.description) if binding.description else 0)
            shown.append(ShownKey(binding.key, display, binding.description, enabled, x, x + width))
            x += width + 1
        if palette_key in active:
            _node, binding, enabled, _tooltip = active[palette_key]
            display = self.app.get_key_display(binding)
            width = 2 + cell_len(display) + 1 + cell_len(binding.description)  # "▏ " before it
            start = max(x, self.size.width - width - 1)
            shown.append(ShownKey(binding.key, display, binding.description, enabled, start, start + width))
        return shown

    def render(self) -> Text:
        key_style = self.get_component_rich_style("key-bar--key")
        description_style = self.get_component_rich_style("key-bar--description")
        line = Text(no_wrap=True, overflow="crop", end="")
        for shown in self.keys():
            line.append(" " * (shown.start - line.cell_len))
            if shown.start and shown.key == self.app.COMMAND_PALETTE_BINDING and self.palette:
                line.append("▏ ", style="dim")
            part = Text.assemble((shown.display, key_style))
            if shown.description:
                part.append(" " + shown.description, style=description_style)
            if not shown.enabled:
                part.stylize("dim")
            line.append_text(part)
        return line

    def on_click(self, event: events.Click) -> None:
        for shown in self.keys():
            if shown.start <= event.x < shown.end:
                if shown.enabled:
                    self.app.simulate_key(shown.key)
                else:
                    self.app.bell()
                return
