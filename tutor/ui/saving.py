"""Progress saves off the UI thread: a lock wait or an fsync on a slow home never stalls a key press."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tutor.i18n import Bilingual, pick
from tutor.progress import ProgressError
from tutor.ui.texts import say

if TYPE_CHECKING:
    from tutor.ui.app_protocol import TutorAppLike


def record(app: TutorAppLike, fn: Callable[..., Any], *args: Any) -> None:
    """Change progress (a tutor.progress.changes function): screens see it at once, the save runs
    off the UI thread, and a failed save is told to the learner."""
    save_in_background(app, app.session.state.change(fn, *args))


def save_in_background(app: TutorAppLike, save: Callable[[], None]) -> None:
    """Run a LearnerState change's `save` in a Textual thread worker; a failure is told to the
    learner (the change stays on screen for this session, and the notice says it was not saved)."""

    def work() -> None:
        try:
            save()
        except ProgressError as exc:
            try:
                app.call_from_thread(tell_not_saved, app, exc.message)
            except RuntimeError:  # the app has ended meanwhile: nobody left to tell
                pass

    app.run_worker(work, thread=True, group="progress", exit_on_error=False)


def tell_not_saved(app: TutorAppLike, why: Bilingual | str) -> None:
    app.notify(say("progress_error", app.lang, why=pick(why, app.lang)), severity="error", timeout=8, markup=False)
