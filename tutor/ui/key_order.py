"""Keys in the order typed: a key is handed on only once the key before it has taken effect and
the screen on top is ready for keys.

Textual gives a key to the widget focused when the key *arrives*. Over a slow link a burst
(F2 then Q) arrives before F2 has moved the focus to the editor, so Q went to the old view and
was lost; keys typed while a screen was still mounting went nowhere. Here keys wait in a queue:
the next one goes out when the one before was taken by a widget (it stopped the key) or reached
the app's bindings, once the messages it set going have been handled (a focus change, a screen
closing and another opening), and when the screen is ready.

Letters waiting behind a letter travel with it as one run of typing (`typed_after`): a widget that
types text (the code editor) inserts the run as one edit, so a burst costs one edit, one
re-highlight and one redraw instead of one per key. A widget that does not take the run, or a
binding that takes the key first, leaves the letters to come back to the front of the queue.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable

from textual import events
from textual.app import App, ScreenStackError
from textual.message import Message
from textual.timer import Timer

STUCK_S = 2.0  # a key no one reported done (its widget went away mid-way): the next goes anyway
NOT_READY_S = 5.0  # a screen that never gets ready for keys still gets them after this long
RETRY_S = 0.02  # how often a screen that is not ready yet is asked again
BUSY_S = 1.0  # messages still in flight after a key (a stream of output, say): the next goes anyway


def _types(event: events.Key | events.Paste) -> bool:
    """A key that only types its character: what a run of typing is made of."""
    return isinstance(event, events.Key) and event.is_printable and bool(event.character)


def typed_after(event: events.Key) -> str:
    """The letters typed right behind `event`, for the widget that inserts them with it as one
    edit; taken from the queue for good (call before stopping the event). Empty when none wait."""
    run = event.__dict__.pop("typed_after", ())
    return "".join(key.character or "" for key in run)


def _tell_queue(event: events.Event, stop: bool) -> None:
    queue = event.__dict__.get("key_queue")
    if stop and queue is not None:
        queue.done(event, by_widget=True)


class _TrackedKey(events.Key):
    """A key that tells its queue when a widget has taken it."""

    __slots__ = ()

    def stop(self, stop: bool = True) -> Message:
        super().stop(stop)
        _tell_queue(self, stop)
        return self


class _TrackedPaste(events.Paste):
    """A paste that tells its queue when a widget has taken it (a TextArea lets it bubble on)."""

    __slots__ = ()

    def stop(self, stop: bool = True) -> Message:
        super().stop(stop)
        _tell_queue(self, stop)
        return self


_TrackedKey.handler_name = events.Key.handler_name  # handled as a Key everywhere (on_key)
_TrackedPaste.handler_name = events.Paste.handler_name
# Keys that move the focus by convention even when a widget takes them itself (the editor's Esc
# leaves it): what follows them waits until the focus has settled.
_MOVE_FOCUS = frozenset({"escape", "tab", "shift+tab"})


def idle(app: App) -> bool:
    """No message waiting anywhere: what the last key set going (a palette closing, then its
    command opening a screen) has run its course."""
    if not app._message_queue.empty():
        return False
    return all(
        node._message_queue.empty() for screen in app.screen_stack for node in screen.walk_children(with_self=True)
    )


def screen_ready(screen) -> bool:
    """Ready for keys: mounted, and its focus in place (a screen may say so itself)."""
    said = getattr(screen, "ready_for_keys", None)
    if said is not None:
        return bool(said)
    if not screen.is_mounted:
        return False
    return screen.focused is not None or not screen.focus_chain


class KeyQueue:
    """One key or paste at a time, in order. `deliver` is Textual's own handling of a fresh one.

    A key the focused widget took for itself (typed text, the editor's own keys) lets the next go
    at once while the focus and the screen stay where they were: nothing it set going can move
    them. After any other (a binding ran: a view, a screen, a palette) the next waits until the
    messages it set going have been handled."""

    def __init__(self, app: App, deliver: Callable[[events.Event], Awaitable[None]]):
        self.app = app
        self.deliver = deliver
        self.waiting: deque[events.Key | events.Paste] = deque()
        self.current: events.Key | events.Paste | None = None
        self._at: tuple = ()  # (screen, focused widget) when the current one was handed on
        self._fast = False  # the one before was a widget's own: no need to wait for quiet
        self._stuck: Timer | None = None  # the timer that frees the queue from a key never reported done
        self._blocked_since: float | None = None
        self._last_done = 0.0  # when the key before was done: its messages get BUSY_S to settle
        self._given_up: set[int] = set()  # screens that never said they were ready
        self._retry: Timer | None = None  # the one timer asking a screen that is not ready yet again

    def arrive(self, event: events.Key | events.Paste) -> None:
        """A key or a paste from the terminal: handled in its turn."""
        self.waiting.append(event)
        self._next()

    def done(self, event: events.Event, by_widget: bool = False) -> None:
        """The key was taken by a widget or reached the app's bindings."""
        if event is not self.current:
            return
        self.current = None
        untaken = event.__dict__.pop("typed_after", ())
        self.waiting.extendleft(reversed(untaken))  # nobody typed them: each in its own turn
        self._fast = by_widget and getattr(event, "key", "") not in _MOVE_FOCUS
        self._last_done = time.monotonic()
        if self._stuck is not None:
            self._stuck.stop()
            self._stuck = None
        # After the callbacks its action queued (a focus change is one): they run first.
        self.app.call_later(self._next)

    def _ready(self) -> bool:
        if self._fast and self._at == (self.app.screen, self.app.focused):
            return True
        self._fast = False
        if not idle(self.app) and time.monotonic() - self._last_done < BUSY_S:
            return False
        screen = self.app.screen
        if id(screen) in self._given_up or screen_ready(screen):
            self._blocked_since = None
            return True
        now = time.monotonic()
        if self._blocked_since is None:
            self._blocked_since = now
        if now - self._blocked_since > NOT_READY_S:
            self._given_up.add(id(screen))
            self._blocked_since = None
            return True
        return False

    def _next(self) -> None:
        if self.current is not None or not self.waiting:
            return
        try:
            ready = self._ready()
        except ScreenStackError:  # the app is closing (its last screen gone): no one to give a key to
            return
        if not ready:
            if self._retry is None:
                self._retry = self.app.set_timer(RETRY_S, self._retried)
            return
        event = self.waiting.popleft()
        event.__class__ = _TrackedPaste if isinstance(event, events.Paste) else _TrackedKey
        event.__dict__["key_queue"] = self
        # Sent from a test's pilot the key names the app as its sender, and the screen (the app's
        # child) would stop it there; a key from the terminal has none. The app's bindings must see it.
        event._sender = None
        self.current = event
        self._at = (self.app.screen, self.app.focused)
        self._stuck = self.app.set_timer(STUCK_S, lambda: self.done(event))
        self.app.call_later(self._deliver, event)

    def _retried(self) -> None:
        self._retry = None
        self._next()

    async def _deliver(self, event: events.Key | events.Paste) -> None:
        if _types(event) and self.waiting and _types(self.waiting[0]):
            # Gathered now, not when it was taken: the rest of a burst has arrived meanwhile.
            run = []
            while self.waiting and _types(self.waiting[0]):
                run.append(self.waiting.popleft())
            event.__dict__["typed_after"] = run
        await self.deliver(event)
        if not event.is_forwarded:  # a priority binding took it, or the app itself did
            self.done(event)
